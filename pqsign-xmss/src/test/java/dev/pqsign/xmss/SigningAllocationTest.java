package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The stateful signer's steady state allocates per signature only what it returns (the signature)
 * plus small bookkeeping, never per hash call: a per-call allocation (a mid-state clone, a digest
 * array) would cost thousands of objects per signature and bring GC pauses into a real-time signing
 * loop. Counted with the JVM's per-thread allocation counter, not timed.
 */
class SigningAllocationTest {
    private static final byte[] MSG = "rpm=1500.25;ts=2026-11-30T01:02:03.456789Z".getBytes(StandardCharsets.US_ASCII);

    /** Bytes the current thread has allocated so far, or -1 if this JVM does not count them. */
    private static long allocated() {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        if (bean instanceof com.sun.management.ThreadMXBean sun && sun.isThreadAllocatedMemorySupported()) {
            return sun.getThreadAllocatedBytes(Thread.currentThread().getId());
        }
        return -1;
    }

    @Test
    void steadyStateSigning_allocatesAboutOneSignaturePerSignature_notPerHashCall() throws Exception {
        assumeTrue(allocated() >= 0, "thread allocation counting not supported by this JVM");
        XmssParameterSet p = XmssParameterSet.XMSSMT_SHA2_10_2_256;
        XmssPrivateKey key = XmssStatefulSignerTest.key(p, 3);
        MemoryStateStore store =
                MemoryStateStore.holding(XmssKeyState.fresh(key).encode());
        try (XmssStatefulSigner signer =
                XmssStatefulSigner.open(store, Options.defaults().withThreads(1))) {
            for (int i = 0; i < 200; i++) {
                signer.sign(MSG);
            }
            // 256 signatures span 8 bottom trees (2^5 leaves each): tree roll-overs, next-tree
            // starts and upper-layer segment refreshes are all included in the average.
            int count = 256;
            long before = allocated();
            for (int i = 0; i < count; i++) {
                signer.sign(MSG);
            }
            long perSignature = (allocated() - before) / count;
            // One signature (4,642 bytes) plus the state update and index bookkeeping, and the
            // amortised per-tree structures; ~7k hash calls with even 50 bytes each would exceed it.
            long bound = p.signatureBytes() + 4096L;
            assertTrue(perSignature <= bound, "allocated " + perSignature + " bytes per signature, bound " + bound);
        }
    }
}
