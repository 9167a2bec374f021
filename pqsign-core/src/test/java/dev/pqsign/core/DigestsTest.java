package dev.pqsign.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class DigestsTest {
    /** SHA-256("abc"), FIPS 180-2 appendix B.1. */
    private static final String SHA256_ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    @Test
    void sha256_knownAnswer_abc() {
        assertEquals(SHA256_ABC, Hex.encode(Digests.sha256().digest("abc".getBytes(StandardCharsets.US_ASCII))));
    }

    @Test
    void sha256_eachCall_freshInstance() {
        assertNotSame(Digests.sha256(), Digests.sha256());
    }

    @Test
    void checkValue_prefixOfSha256OverThePrefixOnly() {
        byte[] b = "abcTRAILING".getBytes(StandardCharsets.US_ASCII);
        byte[] check = Digests.checkValue(b, 3, 16);
        assertArrayEquals(Arrays.copyOf(Hex.decode(SHA256_ABC), 16), check);
        assertEquals(32, Digests.checkValue(b, 3, 32).length);
    }
}
