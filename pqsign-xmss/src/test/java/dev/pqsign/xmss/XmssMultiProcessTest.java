package dev.pqsign.xmss;

import dev.pqsign.state.MultiProcessSigning;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several JVMs, and several signers per JVM, sign with one XMSS^MT key file at the same time (the
 * shared {@link MultiProcessSigning}): the store's lock makes each reservation an atomic
 * read-modify-write across processes, and every signer re-reads the file when it reserves, so no
 * index is ever handed out twice.
 */
class XmssMultiProcessTest {
    private static final XmssParameterSet SET = XmssParameterSet.XMSSMT_SHA2_20_4_256;
    private static final int PER_THREAD = 25;

    @TempDir
    Path dir;

    @Test
    void threeProcessesAndParentThreads_signConcurrently_indicesUniqueAndAllVerify() throws Exception {
        XmssPrivateKey key = XmssStatefulSignerTest.key(SET, 41);
        MultiProcessSigning.signConcurrently(
                XmssTestScheme.key(key), dir, XmssKeyState.fresh(key).encode(), PER_THREAD);
    }

    @Test
    void lockHeldByAnotherProcess_waitersTimeOutWithClearMessage_andNothingIsBurned() throws Exception {
        XmssPrivateKey key = XmssStatefulSignerTest.key(SET, 43);
        MultiProcessSigning.lockHeldByAnotherProcess(
                XmssTestScheme.key(key), dir, XmssKeyState.fresh(key).encode());
    }
}
