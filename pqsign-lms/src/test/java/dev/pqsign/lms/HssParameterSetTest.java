package dev.pqsign.lms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HssParameterSetTest {

    @Test
    void closedSet_has80Trees_oneHashFunctionEach_uniqueNames() {
        assertEquals(80, LmsParameterSet.all().size());
        Set<String> names = new HashSet<>();
        for (LmsParameterSet p : LmsParameterSet.all()) {
            assertEquals(p.lmsType().hash(), p.otsType().hash());
            assertTrue(names.add(p.setName()));
            assertSame(p, LmsParameterSet.of(p.lmsType(), p.otsType()));
            assertSame(p, LmsParameterSet.byName(p.setName()).orElseThrow());
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> LmsParameterSet.of(LmsType.LMS_SHA256_M32_H5, LmOtsType.LMOTS_SHAKE_N32_W4));
    }

    @Test
    void typeCodes_areTheIanaOnes() {
        assertEquals(0x05, LmsType.LMS_SHA256_M32_H5.typeCode());
        assertEquals(0x0E, LmsType.LMS_SHA256_M24_H25.typeCode());
        assertEquals(0x18, LmsType.LMS_SHAKE_M24_H25.typeCode());
        assertEquals(0x04, LmOtsType.LMOTS_SHA256_N32_W8.typeCode());
        assertEquals(0x10, LmOtsType.LMOTS_SHAKE_N24_W8.typeCode());
        for (LmsType t : LmsType.values()) {
            assertSame(t, LmsType.byTypeCode(t.typeCode()).orElseThrow());
        }
        for (LmOtsType t : LmOtsType.values()) {
            assertSame(t, LmOtsType.byTypeCode(t.typeCode()).orElseThrow());
        }
        assertFalse(LmsType.byTypeCode(0).isPresent());
        assertFalse(LmsType.byTypeCode(0x19).isPresent());
        assertFalse(LmOtsType.byTypeCode(-1).isPresent());
    }

    @Test
    void sizes_matchRfc8554Formulas() {
        // RFC 8554 section 5.4.1: 4 + 4 + n(p+1) + 4 + m·h; HSS adds 4 and the lower public keys.
        assertEquals(
                2512, HssTesting.set("LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4").signatureBytes());
        assertEquals(
                1616, HssTesting.set("LMS_SHA256_M32_H15/LMOTS_SHA256_N32_W8").signatureBytes());
        assertEquals(
                1776, HssTesting.set("LMS_SHA256_M32_H20/LMOTS_SHA256_N32_W8").signatureBytes());
        HssParameterSet two =
                HssTesting.set("LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4+LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4");
        assertEquals(4 + 2508 + 56 + 2508, two.signatureBytes());
        assertEquals(60, two.publicKeyBytes());
        assertEquals(1L << 20, two.maxSignatures());
        assertEquals(52, HssTesting.set("LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W8").publicKeyBytes());
        assertTrue(two.isStateful());
    }

    @Test
    void names_parse_andUnknownNamesAreEmpty() {
        assertEquals(
                2,
                HssTesting.set(" LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8 + LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8")
                        .levels());
        assertFalse(
                HssParameterSet.byName("LMS_SHA256_M32_H6/LMOTS_SHA256_N32_W8").isPresent());
        assertFalse(HssParameterSet.byName("").isPresent());
        assertFalse(
                HssParameterSet.byName("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8+").isPresent());
        String nine = String.join("+", java.util.Collections.nCopies(9, "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8"));
        assertFalse(HssParameterSet.byName(nine).isPresent());
    }
}
