package dev.pqsign.lms;

import dev.pqsign.state.MultiProcessSigning;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several JVMs, and several signers per JVM, sign with one HSS key file at the same time (the shared
 * {@link MultiProcessSigning}): the store's lock makes each reservation an atomic read-modify-write
 * across processes, and every signer re-reads the file when it reserves (moving its trees to where
 * the file says), so no index is ever handed out twice and every signature verifies.
 */
class HssMultiProcessTest {
    private static final HssParameterSet SET = HssSignerCrashTest.SET;
    private static final int PER_THREAD = 20;

    @TempDir
    Path dir;

    @Test
    void threeProcessesAndParentThreads_signConcurrently_indicesUniqueAndAllVerify() throws Exception {
        HssPrivateKey key = HssTesting.key(SET, 41);
        MultiProcessSigning.signConcurrently(
                HssTestScheme.key(key), dir, HssKeyState.fresh(key).encode(), PER_THREAD);
    }

    @Test
    void lockHeldByAnotherProcess_waitersTimeOutWithClearMessage_andNothingIsBurned() throws Exception {
        HssPrivateKey key = HssTesting.key(SET, 43);
        MultiProcessSigning.lockHeldByAnotherProcess(
                HssTestScheme.key(key), dir, HssKeyState.fresh(key).encode());
    }
}
