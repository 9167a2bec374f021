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

    /**
     * Upper-layer trees built a chain at a time are the trees the signatures after the roll-over use:
     * signatures across a layer-1 and a layer-2 boundary verify, for both WOTS+ key derivations,
     * and equal those of a signer that builds every tree whole.
     */
    @Test
    void treesBuiltChainByChain_signAcrossUpperLayerRollOvers() {
        XmssParameterSet p = XmssParameterSet.XMSSMT_SHA2_30_6_256;
        for (WotsDerivation derivation : WotsDerivation.values()) {
            byte[] seed = new byte[3 * p.n()];
            java.util.Arrays.fill(seed, (byte) 0x5a);
            XmssPrivateKey key = XmssKeyGenerator.fromSeed(p, derivation, seed, 2, null);
            XmssSigning signing = new XmssSigning(key).cachingUpperLayers();
            CachedAuthPaths cache = new CachedAuthPaths(key, signing.treeHash, 1, true);
            XmssSigning reference = new XmssSigning(key).cachingUpperLayers();
            XmssVerifier verifier = new XmssVerifier(key.publicKey());
            long end = p.maxSignatures();
            // Opened mid-way: the next layer-1 tree (needed at 2^10 = 1024) and the next layer-2
            // tree (needed at 2^15 = 32768) are partly built at load, the rest chain by chain.
            long start = 32768 - 1030;
            cache.prepare(start, end);
            int rebuiltAtLoad = (int) cache.rebuiltLeaves();
            for (long i = start; i < 32768 + 40; i++) {
                byte[] m = ("m" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                byte[] sig = signing.sign(i, m, cache);
                cache.afterSign(i, end);
                if (i % 64 == 0 || (i & 1023) >= 1020 || (i & 1023) < 4) {
                    assertTrue(verifier.verify(m, sig), derivation + " signature " + i);
                    org.junit.jupiter.api.Assertions.assertArrayEquals(
                            reference.sign(i, m, reference.recomputing(1)), sig, derivation + " signature " + i);
                }
            }
            assertEquals(rebuiltAtLoad, cache.rebuiltLeaves(), derivation + ": no tree rebuilt while signing");
        }
    }

    @Test
    void consecutiveSignatures_spreadTreeWorkEvenly() {
        for (XmssParameterSet p : List.of(
                XmssParameterSet.XMSSMT_SHA2_10_2_256,
                XmssParameterSet.XMSSMT_SHA2_20_4_256,
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
            long maxChains = 0;
            byte[] msg = {1, 2, 3};
            for (long i = start; i < start + count; i++) {
                long before = cache.precomputedLeaves();
                long chainsBefore = cache.precomputedChains();
                signing.sign(i, msg, cache);
                cache.afterSign(i, end);
                maxPerSignature = Math.max(maxPerSignature, cache.precomputedLeaves() - before);
                maxChains = Math.max(maxChains, cache.precomputedChains() - chainsBefore);
            }
            assertEquals(rebuiltAtLoad, cache.rebuiltLeaves(), p + ": no tree rebuilt synchronously while signing");
            assertTrue(maxPerSignature <= 2, p + ": at most two leaves per signature, saw " + maxPerSignature);
            // Upper layers' leaves come in WOTS+ chains: ceil(67 / 32) on layer 1, and at most one
            // more chain for all higher layers together.
            assertTrue(maxChains <= 4, p + ": at most 4 upper-layer chains per signature, saw " + maxChains);
            if (p.layers() > 2) {
                assertTrue(cache.precomputedChains() >= (count - 32) * 67 / 32, p + ": upper layers advanced");
            }
            assertTrue(cache.precomputedLeaves() >= count - 32, p + ": next trees were built ahead");
        }
    }
}
