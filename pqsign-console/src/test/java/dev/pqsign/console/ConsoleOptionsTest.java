package dev.pqsign.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConsoleOptionsTest {

    @Test
    void parse_portOnly_loopback() {
        ConsoleOptions o = ConsoleOptions.parse("8080");
        assertEquals("127.0.0.1", o.bindAddress());
        assertEquals(8080, o.port());
        assertTrue(o.isLoopback());
    }

    @Test
    void parse_explicitAnyAddress_notLoopback() {
        ConsoleOptions o = ConsoleOptions.parse("0.0.0.0:9000");
        assertEquals("0.0.0.0", o.bindAddress());
        assertEquals(9000, o.port());
        assertFalse(o.isLoopback());
    }

    @Test
    void parse_bracketedIpv6_hostWithoutBrackets() {
        ConsoleOptions o = ConsoleOptions.parse("[::1]:9000");
        assertEquals("::1", o.bindAddress());
        assertTrue(o.isLoopback());
    }

    @Test
    void parse_bad_oneLineErrors() {
        assertEquals(
                "not a port number: x",
                assertThrows(IllegalArgumentException.class, () -> ConsoleOptions.parse("x"))
                        .getMessage());
        assertEquals(
                "port must be 0..65535, got 70000",
                assertThrows(IllegalArgumentException.class, () -> ConsoleOptions.parse("70000"))
                        .getMessage());
        assertEquals(
                "no host before ':' in :80",
                assertThrows(IllegalArgumentException.class, () -> ConsoleOptions.parse(":80"))
                        .getMessage());
        assertEquals(
                "an IPv6 address needs brackets: [::]:80",
                assertThrows(IllegalArgumentException.class, () -> ConsoleOptions.parse(":::80"))
                        .getMessage());
    }
}
