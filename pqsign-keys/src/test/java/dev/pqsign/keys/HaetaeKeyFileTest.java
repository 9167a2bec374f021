package dev.pqsign.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaePrivateKey;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HaetaeKeyFileTest {
    private static final HaetaeKeyPair KEY =
            HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_2, new SecureRandom());

    private static KeyFormatException refused(byte[] file) {
        return assertThrows(KeyFormatException.class, () -> HaetaeKeyFile.decode(file));
    }

    @Test
    void decode_encodedKey_sameKeyAndSet() {
        for (HaetaeParameterSet h : HaetaeParameterSet.values()) {
            HaetaePrivateKey sk =
                    HaetaeKeyPairGenerator.generate(h, new SecureRandom()).privateKey();
            byte[] file = HaetaeKeyFile.encode(sk);
            assertEquals(8 + h.privateKeyBytes() + 16, file.length);
            HaetaePrivateKey back = HaetaeKeyFile.decode(file);
            assertEquals(h, back.parameterSet());
            assertArrayEquals(sk.getEncoded(), back.getEncoded());
        }
    }

    @Test
    void encode_header_magicVersionModeAndZeroReserved() {
        byte[] file = HaetaeKeyFile.encode(KEY.privateKey());
        assertArrayEquals(new byte[] {'P', 'Q', 'H', 'S', 1, 2, 0, 0}, Arrays.copyOf(file, 8));
        assertTrue(HaetaeKeyFile.hasMagic(file));
    }

    @Test
    void decode_anyBitFlipped_refused() {
        byte[] file = HaetaeKeyFile.encode(KEY.privateKey());
        for (int i = 0; i < file.length; i++) {
            byte[] bad = file.clone();
            bad[i] ^= 0x10;
            refused(bad);
        }
    }

    @Test
    void decode_checkValueMismatch_saysCorrupt() {
        byte[] file = HaetaeKeyFile.encode(KEY.privateKey());
        file[100] ^= 1;
        assertEquals(
                "HAETAE key file is corrupt (check value mismatch)",
                refused(file).getMessage());
    }

    @Test
    void decode_truncatedOrExtended_refusedWithExpectedLength() {
        byte[] file = HaetaeKeyFile.encode(KEY.privateKey());
        String expected = "HAETAE-2 key file must be " + file.length + " bytes, got ";
        assertEquals(
                expected + (file.length - 1),
                refused(Arrays.copyOf(file, file.length - 1)).getMessage());
        assertEquals(
                expected + (file.length + 1),
                refused(Arrays.copyOf(file, file.length + 1)).getMessage());
        refused(Arrays.copyOf(file, 7));
        refused(new byte[0]);
    }

    @Test
    void decode_unknownVersionOrMode_refusedNamingIt() {
        byte[] file = HaetaeKeyFile.encode(KEY.privateKey());
        byte[] v2 = file.clone();
        v2[4] = 2;
        assertEquals("unsupported HAETAE key file version 2", refused(v2).getMessage());
        byte[] mode4 = file.clone();
        mode4[5] = 4;
        assertEquals(
                "unknown HAETAE mode 4 (expected 2, 3 or 5)", refused(mode4).getMessage());
    }

    @Test
    void privateKeyFormat_byMagic_tellsKeyStateAndHaetaeApart() {
        assertEquals(
                Optional.of(PrivateKeyFormat.HAETAE_KEY_FILE),
                PrivateKeyFormat.of(HaetaeKeyFile.encode(KEY.privateKey())));
        assertEquals(
                Optional.of(PrivateKeyFormat.XMSS_KEY_STATE), PrivateKeyFormat.of(new byte[] {'P', 'Q', 'X', 'S'}));
        assertEquals(Optional.of(PrivateKeyFormat.HSS_KEY_STATE), PrivateKeyFormat.of(new byte[] {'P', 'Q', 'L', 'S'}));
        assertEquals(Optional.empty(), PrivateKeyFormat.of(new byte[] {'P', 'Q', 'H'}));
        assertEquals(Optional.empty(), PrivateKeyFormat.of(KEY.publicKey().getEncoded()));
    }
}
