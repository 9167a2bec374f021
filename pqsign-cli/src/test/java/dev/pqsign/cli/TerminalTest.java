package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class TerminalTest {
    @Test
    void isInteractive_streamsRedirectedByTheTestRunner_false() {
        // Surefire's forked JVM reads and writes pipes. On Java 22 and newer System.console() is not
        // null there, so a bare null check would say true.
        assertFalse(Terminal.isInteractive());
    }
}
