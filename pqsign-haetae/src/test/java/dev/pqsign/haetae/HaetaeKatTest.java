package dev.pqsign.haetae;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

import dev.pqsign.haetae.internal.HaetaeKat;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Regenerates the official KAT files and compares them byte for byte (via their SHA-256). */
class HaetaeKatTest {

    static Stream<Arguments> sets() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (HaetaeSampler s : HaetaeSampler.values()) {
            for (HaetaeParameterSet p : HaetaeParameterSet.values()) {
                b.add(Arguments.of(p, s));
            }
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("sets")
    void kat_first3Records_matchCommittedExcerpt(HaetaeParameterSet p, HaetaeSampler s) {
        String expected = KatFiles.resource(KatFiles.dir(s) + "/PQCsignKAT_" + p.katName() + ".head3.rsp");
        String actual = new String(KatFiles.generate(p, s, HaetaeEngine.FAST, 3), StandardCharsets.US_ASCII);
        assertNull(
                KatFiles.firstDifference(expected, actual),
                () -> "KAT mismatch: " + KatFiles.firstDifference(expected, actual));
        assertEquals(expected, actual);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("sets")
    void kat_all100Records_matchOfficialSha256(HaetaeParameterSet p, HaetaeSampler s) {
        checkFull(p, s, HaetaeEngine.FAST);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("sets")
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void kat_all100Records_compactEngine_matchOfficialSha256(HaetaeParameterSet p, HaetaeSampler s) {
        checkFull(p, s, HaetaeEngine.COMPACT);
    }

    private static void checkFull(HaetaeParameterSet p, HaetaeSampler s, HaetaeEngine engine) {
        byte[] generated = KatFiles.generate(p, s, engine, HaetaeKat.RECORDS);
        String sha = KatFiles.sha256(generated);
        String want = KatFiles.officialSha256(p, s);
        if (!sha.equals(want)) {
            String full = KatFiles.officialFullIfPresent(p, s);
            String where = full == null
                    ? "(official file not available for a field diff)"
                    : KatFiles.firstDifference(full, new String(generated, StandardCharsets.US_ASCII));
            fail(p.setName() + " " + s + " " + engine + ": SHA-256 " + sha + " != official " + want + "; " + where);
        }
    }
}
