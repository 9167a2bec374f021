package dev.pqsign.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.x509.PqPublicKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyHandoverTest {
    static final Instant T = Instant.parse("2026-12-01T12:00:00Z");
    static PqPublicKey oldKey;
    static PqPublicKey newKey;

    @BeforeAll
    static void keys() {
        oldKey = TestKeys.freshPublicKey();
        newKey = TestKeys.freshPublicKey();
    }

    static KeyHandover statement() {
        return KeyHandover.of(PublicKeys.keyId(oldKey), 1, oldKey, 1017, T, newKey);
    }

    @Test
    void encode_decode_roundTrips() {
        KeyHandover s = statement();
        KeyHandover d = KeyHandover.decode(s.encode());
        assertEquals(s, d);
        assertArrayEquals(PublicKeys.keyId(oldKey), d.chainId());
        assertEquals(1, d.sequence());
        assertEquals(1017, d.handoverIndex());
        assertEquals(T, d.issuedAt());
        assertEquals(newKey, d.newKey());
        assertTrue(d.isSignedFor(PublicKeys.keyId(oldKey)));
        assertFalse(d.isSignedFor(PublicKeys.keyId(newKey)));
    }

    @Test
    void encode_layout_matchesDocument() {
        byte[] b = statement().encode();
        // docs/formats/key-handover.md: 16 + 1 + 32 + 8 + (1 + 20) + 32 + 8 + 8 + (1 + 20) + 2 + 68
        assertEquals(217, b.length);
        assertEquals("PQSIGN-HANDOVER\0", new String(b, 0, 16, StandardCharsets.US_ASCII));
        assertEquals(1, b[16]);
        assertEquals(20, b[57]);
        assertEquals("XMSSMT-SHA2_10/2_256", new String(b, 58, 20, StandardCharsets.US_ASCII));
        assertEquals(68, ((b[147] & 0xff) << 8) | (b[148] & 0xff));
    }

    @Test
    void decode_everyTruncation_throwsKeyFormatException() {
        byte[] b = statement().encode();
        for (int len = 0; len < b.length; len++) {
            byte[] cut = Arrays.copyOf(b, len);
            assertThrows(KeyFormatException.class, () -> KeyHandover.decode(cut), "length " + len);
        }
    }

    @Test
    void decode_trailingByte_throws() {
        byte[] b = Arrays.copyOf(statement().encode(), 218);
        KeyFormatException e = assertThrows(KeyFormatException.class, () -> KeyHandover.decode(b));
        assertTrue(e.getMessage().contains("trailing"), e.getMessage());
    }

    @Test
    void decode_signedReadingMessage_isNotAHandover() {
        // A reading message starts with its own tag "PQSIGN-READING\0\0"; the domains never overlap.
        byte[] reading = statement().encode();
        System.arraycopy("PQSIGN-READING\0\0".getBytes(StandardCharsets.US_ASCII), 0, reading, 0, 16);
        KeyFormatException e = assertThrows(KeyFormatException.class, () -> KeyHandover.decode(reading));
        assertTrue(e.getMessage().contains("domain tag"), e.getMessage());
    }

    /** As fuzz finding 5 in the chain state (docs/fuzzing.md): one spelling of a set name only. */
    @Test
    void decode_newParameterSetNameInOtherCase_throws() {
        byte[] b = statement().encode();
        byte[] name = newKey.parameterSet().setName().getBytes(StandardCharsets.US_ASCII);
        int at = -1;
        for (int i = b.length - name.length; i >= 0 && at < 0; i--) {
            if (Arrays.equals(Arrays.copyOfRange(b, i, i + name.length), name)) {
                at = i;
            }
        }
        assertTrue(at > 0, "new set name in the statement");
        byte[] lower = new String(name, StandardCharsets.US_ASCII)
                .toLowerCase(Locale.ROOT)
                .getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(lower, 0, b, at, lower.length);
        KeyFormatException e = assertThrows(KeyFormatException.class, () -> KeyHandover.decode(b));
        assertTrue(e.getMessage().contains("is not spelt"), e.getMessage());
    }

    @Test
    void decode_otherVersion_throws() {
        byte[] b = statement().encode();
        b[16] = 2;
        assertThrows(KeyFormatException.class, () -> KeyHandover.decode(b));
    }

    @Test
    void decode_keyLengthBeyondInput_throwsBeforeAllocating() {
        byte[] b = statement().encode();
        b[147] = (byte) 0x0f;
        b[148] = (byte) 0xff;
        assertThrows(KeyFormatException.class, () -> KeyHandover.decode(b));
    }

    @Test
    void decode_newKeyNotValidForItsSet_throws() {
        byte[] b = statement().encode();
        b[149] ^= 0x01; // the RFC 8391 type code of the new key
        assertThrows(KeyFormatException.class, () -> KeyHandover.decode(b));
    }

    @Test
    void decode_sequenceZero_throws() {
        byte[] b = statement().encode();
        b[56] = 0;
        assertThrows(KeyFormatException.class, () -> KeyHandover.decode(b));
    }

    @Test
    void signedRecord_roundTripsAndVerifiesUnderOldKeyOnly(@TempDir Path dir) throws Exception {
        try (TestKeys.OpenKey k = TestKeys.open(dir.resolve("key.state"))) {
            for (int i = 0; i < 3; i++) {
                k.signer().sign(new byte[] {(byte) i});
            }
            SignedKeyHandover h =
                    SignedKeyHandover.sign(k.signer(), k.publicKey(), PublicKeys.keyId(k.publicKey()), 1, newKey, T);
            assertEquals(3, h.statement().handoverIndex(), "signed under the signer's next index");
            SignedKeyHandover d = SignedKeyHandover.decode(h.encode());
            assertEquals(h, d);
            assertTrue(d.isSignedBy(k.publicKey()));
            assertFalse(d.isSignedBy(newKey));
            assertEquals(4, k.signer().nextIndex(), "the statement burned one index");
        }
    }

    @Test
    void signedRecord_flippedBitAnywhere_neverVerifies(@TempDir Path dir) throws Exception {
        try (TestKeys.OpenKey k = TestKeys.open(dir.resolve("key.state"))) {
            SignedKeyHandover h =
                    SignedKeyHandover.sign(k.signer(), k.publicKey(), PublicKeys.keyId(k.publicKey()), 1, newKey, T);
            byte[] rec = h.encode();
            // One bit in every byte of the header and statement, then 300 seeded positions in the signature.
            SplittableRandom rnd = new SplittableRandom(17);
            int signed = 9 + h.statementBytes().length + 4;
            int[] bits = IntStream.concat(
                            IntStream.range(0, signed).map(i -> i * 8 + rnd.nextInt(8)),
                            rnd.ints(300, signed * 8, rec.length * 8))
                    .toArray();
            for (int bit : bits) {
                byte[] bad = rec.clone();
                bad[bit / 8] ^= (byte) (1 << (bit % 8));
                boolean accepted;
                try {
                    accepted = SignedKeyHandover.decode(bad).isSignedBy(k.publicKey());
                } catch (KeyFormatException e) {
                    accepted = false;
                }
                assertFalse(accepted, "bit " + bit);
            }
        }
    }
}
