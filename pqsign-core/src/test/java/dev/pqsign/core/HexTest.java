package dev.pqsign.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class HexTest {

    @Test
    void encode_knownBytes_lowerCaseTwoDigitsEach() {
        assertEquals("00017f80ff", Hex.encode(new byte[] {0, 1, 0x7f, (byte) 0x80, (byte) 0xff}));
        assertEquals("", Hex.encode(new byte[0]));
        assertEquals("7f80", Hex.encode(new byte[] {0, 0x7f, (byte) 0x80, 1}, 1, 2));
    }

    @Test
    void decode_mixedCaseAndSurroundingWhitespace_accepted() {
        assertArrayEquals(new byte[] {(byte) 0xab, (byte) 0xcd, 0x0f}, Hex.decode("  AbcD0F\n"));
        assertArrayEquals(new byte[0], Hex.decode(""));
    }

    @Test
    void decode_oddLength_throwsWithLength() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Hex.decode("abc"));
        assertTrue(e.getMessage().contains("odd length 3"), e.getMessage());
    }

    @Test
    void decode_nonHexCharacter_throwsWithPosition() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Hex.decode("00zz"));
        assertTrue(e.getMessage().contains("position 2"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Hex.decode("0g"));
        assertTrue(e.getMessage().contains("position 1"), e.getMessage());
    }

    @Test
    void decode_nonAsciiDigits_areRejected() {
        // Character.digit accepts these as 3 and 5; a hex string must not
        assertThrows(IllegalArgumentException.class, () -> Hex.decode("\u0663\u0665"));
        assertThrows(IllegalArgumentException.class, () -> Hex.decode("\uff10\uff11"), "full-width digits");
        assertThrows(IllegalArgumentException.class, () -> Hex.decode("0 1"), "inner whitespace");
    }

    @Property(tries = 300)
    void encodeThenDecode_roundTrips(@ForAll byte[] bytes) {
        String hex = Hex.encode(bytes);
        assertEquals(2 * bytes.length, hex.length());
        assertArrayEquals(bytes, Hex.decode(hex));
        assertArrayEquals(bytes, Hex.decode(hex.toUpperCase(Locale.ROOT)));
    }
}
