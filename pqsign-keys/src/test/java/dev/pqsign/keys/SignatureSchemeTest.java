package dev.pqsign.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.xmss.XmssParameterSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SignatureSchemeTest {

    @Test
    void byName_xmssMtName_givesXmssSchemeOfThatSet() {
        SignatureScheme s = SignatureScheme.byName("XMSSMT-SHA2_10/2_256").orElseThrow();
        XmssScheme x = assertInstanceOf(XmssScheme.class, s);
        assertEquals(XmssParameterSet.XMSSMT_SHA2_10_2_256, x.parameterSet());
        assertEquals("XMSSMT-SHA2_10/2_256", s.name());
    }

    @Test
    void byName_haetaeNameInLowerCase_givesHaetaeScheme() {
        SignatureScheme s = SignatureScheme.byName("haetae-3").orElseThrow();
        assertEquals(
                HaetaeParameterSet.HAETAE_3,
                assertInstanceOf(HaetaeScheme.class, s).parameterSet());
    }

    @Test
    void byName_lmsTreeAndTwoLevelHierarchy_giveHssSchemes() {
        HssScheme lms = assertInstanceOf(
                HssScheme.class,
                SignatureScheme.byName("lms_sha256_m32_h10/lmots_sha256_n32_w4").orElseThrow());
        assertEquals("LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4", lms.name());
        assertEquals(1, lms.parameterSet().levels());
        HssScheme hss = assertInstanceOf(
                HssScheme.class,
                SignatureScheme.byName("LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4+LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8")
                        .orElseThrow());
        assertEquals(2, hss.parameterSet().levels());
        assertEquals(15, hss.parameterSet().totalHeight());
        assertEquals(
                "LMS_SHA256_M32_H10-LMOTS_SHA256_N32_W4_LMS_SHA256_M32_H5-LMOTS_SHA256_N32_W8", hss.directoryName());
    }

    @Test
    void byName_unknownName_empty() {
        assertFalse(SignatureScheme.byName("XMSS-SHA2_11_256").isPresent());
        assertFalse(SignatureScheme.byName("HAETAE-4").isPresent());
        assertFalse(
                SignatureScheme.byName("LMS_SHA256_M32_H10/LMOTS_SHA256_N24_W4").isPresent());
    }

    @Test
    void directoryName_xmssMtSet_slashBecomesDash() {
        assertEquals(
                "XMSSMT-SHA2_10-2_256",
                XmssScheme.of(XmssParameterSet.XMSSMT_SHA2_10_2_256).directoryName());
        assertEquals("HAETAE-2", HaetaeScheme.of(HaetaeParameterSet.HAETAE_2).directoryName());
    }

    @Test
    void directoryName_otherCharacters_becomeUnderscore() {
        assertEquals("ED25519_TEST-.._x", SignatureScheme.directoryName("ED25519 TEST/..:x"));
        assertEquals("a_b", SignatureScheme.directoryName("a b"));
        assertEquals("a-b_c", SignatureScheme.directoryName("a/b\\c"));
    }

    @Test
    void all_everySet_onceWithDistinctDirectoryNames() {
        List<SignatureScheme> all = SignatureScheme.all();
        assertEquals(XmssParameterSet.values().length + HaetaeParameterSet.values().length, all.size());
        Set<String> dirs = new HashSet<>();
        for (SignatureScheme s : all) {
            assertTrue(dirs.add(s.directoryName()), s.name());
            assertEquals(s, SignatureScheme.byName(s.name()).orElseThrow());
        }
    }

    @Test
    void equals_sameSet_equalAndOtherSetNot() {
        assertEquals(
                XmssScheme.of(XmssParameterSet.XMSS_SHA2_10_256), XmssScheme.of(XmssParameterSet.XMSS_SHA2_10_256));
        assertNotEquals(
                XmssScheme.of(XmssParameterSet.XMSS_SHA2_10_256), XmssScheme.of(XmssParameterSet.XMSSMT_SHA2_20_2_256));
    }
}
