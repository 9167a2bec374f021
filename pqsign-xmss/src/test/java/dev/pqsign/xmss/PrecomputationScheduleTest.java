package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The work behind "no latency spikes", counted in leaves rather than timed: after a key is loaded,
 * 2^10 consecutive signatures never rebuild a tree synchronously, and no signature computes more
 * than two leaves ahead of time.
 */
class PrecomputationScheduleTest {

    @Test
    void consecutiveSignatures_spreadTreeWorkEvenly() {
        for (XmssParameterSet p : List.of(XmssParameterSet.XMSSMT_SHA2_10_2_256, XmssParameterSet.XMSSMT_SHA2_20_4_256,
                XmssParameterSet.XMSSMT_SHA2_30_6_256)) {
            XmssPrivateKey key = XmssStatefulSignerTest.key(p, 21);
            XmssSigning signing = new XmssSigning(key).cachingUpperLayers();
            CachedAuthPaths cache = new CachedAuthPaths(key, signing.treeHash, 1);
            long start = p == XmssParameterSet.XMSSMT_SHA2_10_2_256 ? 0 : 1000;
            long end = p.maxSignatures();
            cache.prepare(start, end);
            long rebuiltAtLoad = cache.rebuiltLeaves();
            assertEquals(32L * p.layers(), rebuiltAtLoad, p + ": one tree per layer built at load");
            long count = Math.min(1024, end - start);
            long maxPerSignature = 0;
            byte[] msg = {1, 2, 3};
            for (long i = start; i < start + count; i++) {
                long before = cache.precomputedLeaves();
                signing.sign(i, msg, cache);
                cache.afterSign(i, end);
                maxPerSignature = Math.max(maxPerSignature, cache.precomputedLeaves() - before);
            }
            assertEquals(rebuiltAtLoad, cache.rebuiltLeaves(), p + ": no tree rebuilt synchronously while signing");
            assertTrue(maxPerSignature <= 2, p + ": at most two leaves per signature, saw " + maxPerSignature);
            assertTrue(cache.precomputedLeaves() >= count - 32, p + ": next trees were built ahead");
        }
    }
}
