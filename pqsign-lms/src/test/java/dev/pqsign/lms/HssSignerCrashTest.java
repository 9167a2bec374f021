package dev.pqsign.lms;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.state.SignerCrashRun;
import dev.pqsign.state.SignerCrashRun.Stats;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILLs a child JVM that signs in a loop with the durable HSS signer, at random moments, and
 * restarts it. After every kill: every signature file verifies and carries the index of its name, no
 * index was printed or written twice across all runs, every used index lies below the state's next
 * index, and the next run starts exactly at that next index. Three levels of 32 leaves, so that the
 * runs cross bottom-tree and middle-tree switches (new upper signatures) and restart inside them
 * (the shared {@link SignerCrashRun}).
 */
class HssSignerCrashTest {
    static final HssParameterSet SET =
            HssParameterSet.uniform(HssTesting.lms("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4"), 3);

    @TempDir
    Path dir;

    @Test
    void sigkillWhileSigning_batch1_noIndexReusedAndAllSignaturesVerify() throws Exception {
        Stats s = runKills(6, 1, false, 7);
        assertTrue(s.maxSkipped() <= 1, "batch 1 lost more than one index in a crash: " + s);
    }

    @Test
    void sigkillWhileSigning_batch16ReservingAhead_noIndexReusedAndLossBounded() throws Exception {
        Stats s = runKills(4, 16, true, 8);
        assertTrue(s.maxSkipped() <= 17, "batch 16 reserving ahead lost more than 17 indices in a crash: " + s);
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sigkillWhileSigning_batch1_long() throws Exception {
        Stats s = runKills(200, 1, false, System.nanoTime());
        assertTrue(s.maxSkipped() <= 1, s.toString());
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sigkillWhileSigning_batch1ReservingAhead_long() throws Exception {
        Stats s = runKills(200, 1, true, System.nanoTime());
        assertTrue(s.maxSkipped() <= 2, s.toString());
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sigkillWhileSigning_batch16_long() throws Exception {
        Stats s = runKills(200, 16, false, System.nanoTime());
        assertTrue(s.maxSkipped() <= 16, s.toString());
    }

    private Stats runKills(int kills, int batch, boolean ahead, long seed) throws Exception {
        HssPrivateKey key = HssTesting.key(SET, 31);
        // Start a little before index 1024, where the middle and the bottom tree are replaced; one
        // run in 6 is killed while its JVM starts or rebuilds the trees.
        long first = 1024 - 24;
        byte[] state =
                HssKeyState.fresh(key).withRange(first, SET.maxSignatures()).encode();
        return new SignerCrashRun(HssTestScheme.key(key), dir, state, 6).run(kills, batch, ahead, seed);
    }
}
