package dev.pqsign.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.lms.HssKeyGenerator;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssPublicKey;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssParameterSet;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PublicKeyFileTest {
    /** XMSS-SHA2_10_256 and XMSSMT-SHA2_20/2_256 both have type code 1 (RFC 8391). */
    private static final byte[] SHARED_TYPE_CODE = rfcKey(1, 32);

    private static byte[] rfcKey(int typeCode, int n) {
        byte[] rootAndSeed = new byte[2 * n];
        new SecureRandom().nextBytes(rootAndSeed);
        return ByteBuffer.allocate(4 + 2 * n).putInt(typeCode).put(rootAndSeed).array();
    }

    @Test
    void detect_typeCodeSharedByXmssAndXmssMt_throwsAmbiguousNamingBoth() {
        AmbiguousPublicKeyException e =
                assertThrows(AmbiguousPublicKeyException.class, () -> PublicKeyFile.detect(SHARED_TYPE_CODE));
        assertEquals(List.of(XmssParameterSet.XMSS_SHA2_10_256, XmssParameterSet.XMSSMT_SHA2_20_2_256), e.candidates());
        assertEquals("XMSS-SHA2_10_256 and XMSSMT-SHA2_20/2_256", e.candidateNames());
    }

    @Test
    void detectForSignature_sharedTypeCode_picksTheSetWhoseSignaturesHaveThatLength() {
        for (XmssParameterSet p : List.of(XmssParameterSet.XMSS_SHA2_10_256, XmssParameterSet.XMSSMT_SHA2_20_2_256)) {
            PqPublicKey k = PublicKeyFile.detectForSignature(SHARED_TYPE_CODE, p.signatureBytes());
            assertEquals(p, k.parameterSet());
            assertArrayEquals(SHARED_TYPE_CODE, k.rawEncoding());
        }
    }

    @Test
    void detectForSignature_sharedTypeCodeOtherLength_firstCandidate() {
        assertEquals(
                XmssParameterSet.XMSS_SHA2_10_256,
                PublicKeyFile.detectForSignature(SHARED_TYPE_CODE, 7).parameterSet());
    }

    @Test
    void decode_namedXmssSetWithRawRootAndSeed_addsTheTypeCode() {
        XmssParameterSet p = XmssParameterSet.XMSS_SHA2_10_256;
        byte[] raw = Arrays.copyOfRange(SHARED_TYPE_CODE, 4, SHARED_TYPE_CODE.length);
        PqPublicKey k = PublicKeyFile.decode(XmssScheme.of(p), raw);
        assertEquals(p, k.parameterSet());
        assertArrayEquals(SHARED_TYPE_CODE, k.rawEncoding());
    }

    @Test
    void decode_namedSetOfAnotherTypeCode_refused() {
        assertThrows(
                KeyFormatException.class,
                () -> PublicKeyFile.decode(XmssScheme.of(XmssParameterSet.XMSS_SHA2_16_256), SHARED_TYPE_CODE));
    }

    @Test
    void detect_haetaeKeyByLength_givesHaetaeKeyOfThatSet() {
        for (HaetaeParameterSet h : HaetaeParameterSet.values()) {
            byte[] pub = HaetaeKeyPairGenerator.generate(h, new SecureRandom())
                    .publicKey()
                    .getEncoded();
            PqPublicKey k = PublicKeyFile.detect(pub);
            assertEquals(h, k.parameterSet());
            assertArrayEquals(pub, k.rawEncoding());
            assertEquals(h, PublicKeyFile.decode(HaetaeScheme.of(h), pub).parameterSet());
        }
    }

    @Test
    void detect_unknownTypeCodeAndLength_refusedWithLengthInMessage() {
        KeyFormatException e = assertThrows(KeyFormatException.class, () -> PublicKeyFile.detect(new byte[13]));
        assertTrue(e.getMessage().contains("13 bytes"), e.getMessage());
        assertThrows(KeyFormatException.class, () -> PublicKeyFile.detectForSignature(new byte[13], 100));
    }

    @Test
    void looksLikePem_beginLineAfterBlanks_trueAndBinaryFalse() {
        assertTrue(PublicKeyFile.looksLikePem(
                "\n  -----BEGIN CERTIFICATE-----\nAA==\n".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(PublicKeyFile.looksLikePem(SHARED_TYPE_CODE));
        assertFalse(PublicKeyFile.looksLikePem(new byte[0]));
    }

    @Test
    void detect_hssPublicKey_givesHssKeyAndNamedDecodeChecksTheTopTree() {
        HssParameterSet twoLevels = HssParameterSet.byName(
                        "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8+LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8")
                .orElseThrow();
        HssPublicKey key =
                HssKeyGenerator.generate(twoLevels, new SecureRandom(), 1, null).publicKey();
        byte[] file = key.encoded();
        assertEquals(PqPublicKey.of(key), PublicKeyFile.detect(file));
        assertEquals(PqPublicKey.of(key), PublicKeyFile.detectForSignature(file, 1));
        assertEquals(PqPublicKey.of(key), PublicKeyFile.decode(HssScheme.of(twoLevels), file));
        HssParameterSet oneLevel =
                HssParameterSet.byName("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8").orElseThrow();
        assertThrows(KeyFormatException.class, () -> PublicKeyFile.decode(HssScheme.of(oneLevel), file));
    }
}
