package dev.pqsign.cli;

import java.io.Console;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/** Whether the JVM talks to an interactive terminal, asked the same way on every Java version pqsign runs on. */
final class Terminal {
    private Terminal() {}

    /**
     * True if standard input and output are an interactive terminal. Up to Java 21 that is exactly
     * when {@link System#console()} is not null; from Java 22 on it may return a console for
     * redirected streams too (Java 22's JLine-based console does; Temurin 25 returns null again), and
     * {@code Console.isTerminal()} (new in Java 22, so called reflectively from Java 17 code) tells.
     */
    // SystemConsoleNull is a false positive here: its advice, Console.isTerminal(), is what this method
    // calls where it exists; on Java 17 to 21 the null check is the only test there is.
    @SuppressWarnings("SystemConsoleNull")
    static boolean isInteractive() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        Method isTerminal;
        try {
            isTerminal = Console.class.getMethod("isTerminal");
        } catch (NoSuchMethodException e) {
            return true; // before Java 22
        }
        try {
            return (Boolean) isTerminal.invoke(console);
        } catch (IllegalAccessException | InvocationTargetException e) {
            return false; // cannot tell: no live redraws, which is always safe
        }
    }
}
