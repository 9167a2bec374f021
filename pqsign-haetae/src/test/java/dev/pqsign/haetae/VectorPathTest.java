package dev.pqsign.haetae;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Random;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/**
 * The fast engine's opt-in multi-stream (Vector API) Keccak against the scalar path. The module's
 * build runs the tests twice: opted in, with {@code --add-modules jdk.incubator.vector
 * -Dpqsign.haetae.vector=true} ({@code pqsign.test.expectVectorModule=true}), and on the default
 * scalar path without either (the KAT, differential, BouncyCastle and allocation tests then exercise
 * the scalar code).
 */
class VectorPathTest {

    @Test
    void vectorPath_isOnExactlyWhenOptedInAndTheModuleIsThere() {
        String expect = System.getProperty("pqsign.test.expectVectorModule");
        assumeTrue(expect != null, "run by the module's build");
        boolean module = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
        System.out.println("HAETAE fast engine: " + VectorSupport.describe());
        if (Boolean.parseBoolean(expect)) {
            assertTrue(module, "surefire should add jdk.incubator.vector");
            assertEquals("true", System.getProperty(VectorSupport.PROPERTY), "surefire should opt in");
            String arch = System.getProperty("os.arch");
            if (arch.equals("amd64") || arch.equals("x86_64")) {
                assertTrue(VectorSupport.enabled(), VectorSupport.describe());
                assertTrue(VectorSupport.describe().startsWith("Vector API path"), VectorSupport.describe());
            }
        } else {
            assertFalse(module);
            assertFalse(VectorSupport.enabled());
            assertTrue(VectorSupport.describe().startsWith("scalar path"), VectorSupport.describe());
            assertEquals(0, new HaetaeContext(HaetaeParameterSet.HAETAE_2).sampler.lanes);
        }
        // the public report of which path runs (pqsign bench prints it) says the same
        assertEquals(VectorSupport.enabled() ? VectorSupport.LANES : 0, HaetaeEngine.fastVectorLanes());
        assertEquals(VectorSupport.describe(), HaetaeEngine.fastPathDescription());
    }

    @Test
    void choose_vectorOnlyWithPropertyTrueAndModule_probeAskedOnlyThen() {
        int[] probes = {0};
        IntSupplier probe = () -> {
            probes[0]++;
            return 8;
        };
        assertEquals(0, VectorSupport.choose(null, true, probe), "unset property: scalar (the default)");
        assertEquals(0, VectorSupport.choose("false", true, probe));
        assertEquals(0, VectorSupport.choose("1", true, probe), "only \"true\" opts in");
        assertEquals(0, VectorSupport.choose("true", false, probe), "no module: scalar");
        assertEquals(0, probes[0], "the vector classes are not touched unless both allow it");
        assertEquals(8, VectorSupport.choose("true", true, probe));
        assertEquals(8, VectorSupport.choose("TRUE", true, probe));
        assertEquals(0, VectorSupport.choose("true", true, () -> 0), "a failed probe keeps the scalar path");
    }

    @Test
    void classLoading_startsNoThread() {
        // VectorSupport is loaded by now (the tests above use it); the old warm-up thread had this name
        assertTrue(VectorSupport.LANES >= 0);
        boolean warmUpThread = Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().contains("haetae") && t.getName().contains("warm"));
        assertFalse(warmUpThread, "no thread is started by loading the HAETAE classes");
    }

    @Test
    void vectorPermutation_equalsScalarOnEveryLane() {
        assumeTrue(VectorSupport.enabled(), VectorSupport.describe());
        int w = VectorSupport.LANES;
        Random rnd = new Random(42);
        long[] st = new long[VectorKeccak.STATE_LONGS];
        long[][] ref = new long[w][25];
        for (int j = 0; j < w; j++) {
            for (int i = 0; i < 25; i++) {
                ref[j][i] = rnd.nextLong();
                st[i * w + j] = ref[j][i];
            }
        }
        for (int round = 0; round < 5; round++) {
            for (int i = 25 * w; i < st.length; i++) {
                st[i] = rnd.nextLong(); // the scratch half must not matter
            }
            VectorKeccak.permute(st);
            for (int j = 0; j < w; j++) {
                Keccak.permuteLanes(ref[j]);
                for (int i = 0; i < 25; i++) {
                    assertEquals(ref[j][i], st[i * w + j], "round " + round + " state " + j + " lane " + i);
                }
            }
        }
    }

    /** gaussPolys for 1..lanes streams against the scalar gaussPoly, stream by stream. */
    @Test
    void lockStepStreams_consumeTheSameBytesAsTheScalarPath() {
        assumeTrue(VectorSupport.enabled(), VectorSupport.describe());
        int w = VectorSupport.LANES;
        Random rnd = new Random(7);
        byte[] seed = new byte[HaetaeParameterSet.CRHBYTES];
        Keccak xof = new Keccak();
        HaetaeParameterSet p = HaetaeParameterSet.HAETAE_5;
        int[] drawLanes = {0, VectorSupport.drawLanes()};
        for (int c = 0; c < 2 * drawLanes.length; c++) {
            HaetaeSampler s = HaetaeSampler.values()[c % 2];
            int dl = drawLanes[c / 2];
            for (int n = 1; n <= w; n++) {
                for (int poly0 : new int[] {0, 1, 2}) {
                    rnd.nextBytes(seed);
                    int nonce0 = rnd.nextInt(0x10000);
                    HyperballSampler.Work vec = new HyperballSampler.Work(p, w, dl);
                    HyperballSampler.Work sca = new HyperballSampler.Work(p, 0, 0);
                    HyperballSampler.gaussPolys(s, vec, seed, nonce0, poly0, n);
                    for (int j = 0; j < n; j++) {
                        int poly = poly0 + j;
                        HyperballSampler.gaussPoly(s, xof, sca, seed, nonce0 + j, poly, poly < 2 ? 257 : 256);
                    }
                    String what = s + " n=" + n + " poly0=" + poly0 + " vector draws " + dl;
                    assertEquals(sca.sqsum.hi, vec.sqsum.hi, what);
                    assertEquals(sca.sqsum.lo, vec.sqsum.lo, what);
                    int from = poly0 * HyperballSampler.SAMPLE_STRIDE;
                    for (int j = 0; j < n; j++) {
                        for (int i = 0; i < 256; i++) {
                            int at = from + j * HyperballSampler.SAMPLE_STRIDE + i;
                            assertEquals(sca.samples[at], vec.samples[at], what + " sample " + j + "/" + i);
                        }
                    }
                    int sb = poly0 * 32;
                    for (int i = sb; i < sb + 32 * n; i++) {
                        assertEquals(sca.signs[i], vec.signs[i], what + " sign byte " + i);
                    }
                }
            }
        }
    }

    /** Whole hyperball draws (all streams of an attempt) for every set and sampler. */
    @Test
    void hyperballSample_vectorEqualsScalar() {
        assumeTrue(VectorSupport.enabled(), VectorSupport.describe());
        Random rnd = new Random(11);
        byte[] seed = new byte[HaetaeParameterSet.CRHBYTES];
        Keccak xof = new Keccak();
        for (HaetaeParameterSet p : HaetaeParameterSet.values()) {
            for (HaetaeSampler s : HaetaeSampler.values()) {
                HyperballSampler.Work vec =
                        new HyperballSampler.Work(p, VectorSupport.LANES, VectorSupport.drawLanes());
                HyperballSampler.Work sca = new HyperballSampler.Work(p, 0, 0);
                int[][] y1v = new int[p.l][256];
                int[][] y2v = new int[p.k][256];
                int[][] y1s = new int[p.l][256];
                int[][] y2s = new int[p.k][256];
                for (int t = 0; t < 20; t++) {
                    rnd.nextBytes(seed);
                    int nonce = rnd.nextInt(0x10000);
                    int nv = HyperballSampler.sample(p, s, xof, vec, seed, nonce, y1v, y2v);
                    int ns = HyperballSampler.sample(p, s, xof, sca, seed, nonce, y1s, y2s);
                    String what = p + " " + s + " try " + t;
                    assertEquals(ns, nv, what);
                    assertEquals(sca.b, vec.b, what);
                    for (int i = 0; i < p.l; i++) {
                        assertArrayEquals(y1s[i], y1v[i], what + " y1_" + i);
                    }
                    for (int i = 0; i < p.k; i++) {
                        assertArrayEquals(y2s[i], y2v[i], what + " y2_" + i);
                    }
                }
            }
        }
    }

    /**
     * Batches of v1.1.2 draws against the scalar drawV112, on random bytes and on edge cases: CDT
     * values next to table entries, all-zero and all-one fields, the largest fractions.
     */
    @Test
    void vectorDraws_equalScalarDraws() {
        assumeTrue(VectorSupport.drawLanes() > 0, VectorSupport.describe() + " (vector draws need 8 lanes)");
        int dw = VectorSupport.drawLanes();
        Random rnd = new Random(3);
        byte[] buf = new byte[17 * dw + 8];
        long[] out = new long[6 * dw];
        FixedPoint.Fp sqr = new FixedPoint.Fp();
        FixedPoint.Fp y = new FixedPoint.Fp();
        int[] cdt = {0, 1, 3265, 3266, 3267, 65533, 65534, 65535};
        int batches = 0;
        for (int iter = 0; iter < 200_000; iter++) {
            rnd.nextBytes(buf);
            for (int t = 0; t < dw; t++) {
                int o = 17 * t;
                switch (rnd.nextInt(6)) {
                    case 0: // CDT input next to a table entry or an extreme
                        int v = rnd.nextBoolean() ? cdt[rnd.nextInt(cdt.length)] : 3266 + rnd.nextInt(64000);
                        buf[o] = (byte) v;
                        buf[o + 1] = (byte) (v >> 8);
                        break;
                    case 1:
                        java.util.Arrays.fill(buf, o, o + 17, (byte) 0);
                        break;
                    case 2:
                        java.util.Arrays.fill(buf, o, o + 17, (byte) 0xff);
                        break;
                    case 3: // largest or smallest fraction bytes
                        java.util.Arrays.fill(buf, o + 8, o + 17, rnd.nextBoolean() ? (byte) 0xff : 0);
                        break;
                    default:
                        break;
                }
            }
            assertTrue(VectorDraws.drawV112(buf, 0, out), "operands in range");
            batches++;
            for (int t = 0; t < dw; t++) {
                long acc = HyperballSampler.drawV112(buf, 17 * t, sqr, y) & 1;
                assertDrawEquals(out, dw, t, acc, sqr, y, "iter " + iter + " draw " + t);
            }
        }
        assertEquals(200_000, batches);
    }

    /**
     * Batches of v1.2.0 CDT indices against the scalar two-limb scan: random values, values equal to a
     * table entry or one off it (with carries across the 64-bit boundary), values sharing an entry's
     * upper 42 bits (where only the low limb decides), and the extremes 0 and 2^83 - 1.
     */
    @Test
    void vectorCdt83_equalsScalarScan() {
        assumeTrue(VectorSupport.drawLanes() > 0, VectorSupport.describe() + " (vector draws need 8 lanes)");
        int dw = VectorSupport.drawLanes();
        Random rnd = new Random(4);
        byte[] buf = new byte[26 * dw + 8];
        long[] out = new long[6 * dw];
        java.nio.ByteBuffer le = java.nio.ByteBuffer.wrap(buf).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int[] kinds = new int[6];
        for (int iter = 0; iter < 100_000; iter++) {
            rnd.nextBytes(buf);
            for (int t = 0; t < dw; t++) {
                int kind = rnd.nextInt(6);
                kinds[kind]++;
                putCdt83Input(le, 26 * t, kind, rnd);
            }
            VectorDraws.cdt83(buf, 0, out);
            for (int t = 0; t < dw; t++) {
                long expected = HyperballSampler.cdt83(le.getLong(26 * t), le.getLong(26 * t + 8) & 0x7ffff);
                assertEquals(expected, out[t], "iter " + iter + " draw " + t);
            }
        }
        for (int kind : kinds) {
            assertTrue(kind > 100_000, "every kind of input was tried");
        }
    }

    /**
     * Writes the 83-bit CDT input of the v1.2.0 draw at {@code o} (bytes o .. o + 10, bits outside
     * the 83 kept): kind 0 equal to a random table entry, 1 one above it (carry into the upper 19
     * bits when the low word wraps), 2 one below, 3 sharing its upper 42 bits with any low 41 bits,
     * 4 the extremes 0 or 2^83 - 1, 5 the random bytes already there.
     */
    private static void putCdt83Input(java.nio.ByteBuffer le, int o, int kind, Random rnd) {
        int i = rnd.nextInt(Cdt83.LEN);
        long lo = Cdt83.LO[i];
        long hi = i < Cdt83.HI_LEN ? Cdt83.HI[i] : Cdt83.HI_SATURATED;
        switch (kind) {
            case 0:
                break;
            case 1:
                lo++;
                hi += lo == 0 ? 1 : 0;
                break;
            case 2:
                hi -= lo == 0 ? 1 : 0;
                lo--;
                break;
            case 3:
                lo = (lo & ~Cdt83.MASK41) | (rnd.nextLong() & Cdt83.MASK41);
                break;
            case 4:
                boolean max = rnd.nextBoolean();
                lo = max ? -1L : 0;
                hi = max ? 0x7ffff : 0;
                break;
            default:
                return;
        }
        le.putLong(o, lo);
        long w1 = le.getLong(o + 8);
        le.putLong(o + 8, (w1 & ~0x7ffffL) | (hi & 0x7ffff));
    }

    /**
     * Batches of v1.2.0 draws against the scalar drawV120: CDT inputs as in the test above, all-zero
     * and all-one draws, the largest and smallest fractions and rejection values.
     */
    @Test
    void vectorDraws83_equalScalarDraws() {
        assumeTrue(VectorSupport.drawLanes() > 0, VectorSupport.describe() + " (vector draws need 8 lanes)");
        int dw = VectorSupport.drawLanes();
        Random rnd = new Random(5);
        byte[] buf = new byte[26 * dw + 8];
        long[] out = new long[6 * dw];
        java.nio.ByteBuffer le = java.nio.ByteBuffer.wrap(buf).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        FixedPoint.Fp sqr = new FixedPoint.Fp();
        FixedPoint.Fp y = new FixedPoint.Fp();
        long accepted = 0;
        for (int iter = 0; iter < 200_000; iter++) {
            rnd.nextBytes(buf);
            for (int t = 0; t < dw; t++) {
                int o = 26 * t;
                int kind = rnd.nextInt(9);
                if (kind < 6) {
                    putCdt83Input(le, o, kind, rnd);
                } else if (kind == 6) {
                    java.util.Arrays.fill(buf, o, o + 26, rnd.nextBoolean() ? (byte) 0xff : 0);
                } else if (kind == 7) { // fraction bytes (17..25)
                    java.util.Arrays.fill(buf, o + 17, o + 26, rnd.nextBoolean() ? (byte) 0xff : 0);
                } else { // rejection bytes (11..16)
                    java.util.Arrays.fill(buf, o + 11, o + 17, rnd.nextBoolean() ? (byte) 0xff : 0);
                }
            }
            assertTrue(VectorDraws.drawV120(buf, 0, out), "operands in range");
            for (int t = 0; t < dw; t++) {
                long acc = HyperballSampler.drawV120(buf, 26 * t, sqr, y) & 1;
                accepted += acc;
                assertDrawEquals(out, dw, t, acc, sqr, y, "iter " + iter + " draw " + t);
            }
        }
        assertTrue(accepted > 100_000 && accepted < 200_000L * dw - 100_000, "both outcomes occur: " + accepted);
    }

    /** Entry t of a vector batch (VectorDraws layout) against the scalar draw's outputs. */
    private static void assertDrawEquals(
            long[] out, int dw, int t, long accepted, FixedPoint.Fp sqr, FixedPoint.Fp y, String what) {
        assertEquals(y.lo, out[t], what + " sample");
        assertEquals(accepted, out[dw + t], what + " accepted");
        assertEquals(sqr.lo, out[2 * dw + t], what + " square lo");
        assertEquals(sqr.hi, out[3 * dw + t], what + " square hi");
    }

    /** The vector hyperball scaling against FixedPoint.mulRound13, including extreme samples and radii. */
    @Test
    void vectorScaling_equalsScalar() {
        assumeTrue(VectorSupport.drawLanes() > 0, VectorSupport.describe() + " (vector scaling needs 8 lanes)");
        Random rnd = new Random(5);
        long[] samples = new long[256];
        byte[] signs = new byte[32];
        int[] out = new int[256];
        long[] tmp = new long[6 * VectorSupport.drawLanes()];
        long[] edges = {
            0, 1, Long.MAX_VALUE, Long.MAX_VALUE - 1, 1L << 62, (1L << 32) - 1, 1L << 32, -1L, Long.MIN_VALUE
        };
        for (int iter = 0; iter < 3000; iter++) {
            long rlo = iter % 7 == 0 ? (1L << 48) - 1 : rnd.nextLong() >>> 16;
            long rhi = iter % 5 == 0 ? (1L << 32) - 1 : rnd.nextLong() >>> (32 + rnd.nextInt(32));
            for (int j = 0; j < 256; j++) {
                int kind = rnd.nextInt(10);
                samples[j] = kind == 0
                        ? edges[rnd.nextInt(edges.length)]
                        : kind < 4 ? rnd.nextLong() >>> 1 : rnd.nextLong() >>> (20 + rnd.nextInt(40));
            }
            rnd.nextBytes(signs);
            long sq = VectorDraws.scalePoly(samples, 0, signs, 0, rlo, rhi, out, 256, tmp);
            long expect = 0;
            for (int j = 0; j < 256; j++) {
                int v = FixedPoint.mulRound13(samples[j], rlo, rhi, (signs[j >>> 3] >> (j & 7)) & 1);
                assertEquals(v, out[j], "iter " + iter + " coefficient " + j + " x=" + samples[j]);
                expect += (long) v * v;
            }
            assertEquals(expect, sq, "iter " + iter);
        }
    }

    /**
     * With the vector path on, FAST signatures (vector sampler from the first call) equal COMPACT's
     * (always scalar) for every set and sampler, and each verifies.
     */
    @Test
    void fastSignaturesOnTheVectorPath_equalCompactSignatures() {
        assumeTrue(VectorSupport.enabled(), VectorSupport.describe());
        Random rnd = new Random(13);
        for (HaetaeParameterSet p : HaetaeParameterSet.values()) {
            byte[] seed = new byte[32];
            rnd.nextBytes(seed);
            HaetaeKeyPair kp = HaetaeKeyPairGenerator.fromSeed(p, seed);
            for (HaetaeSampler s : HaetaeSampler.values()) {
                for (int t = 0; t < 3; t++) {
                    byte[] msg = new byte[1 + rnd.nextInt(100)];
                    byte[] ctx = new byte[rnd.nextInt(20)];
                    byte[] r = new byte[32];
                    rnd.nextBytes(msg);
                    rnd.nextBytes(ctx);
                    rnd.nextBytes(r);
                    byte[] a = new HaetaeSigner(kp.privateKey(), ctx, s, HaetaeEngine.FAST, new FixedRandom(r))
                            .sign(msg, ctx);
                    byte[] c = new HaetaeSigner(kp.privateKey(), ctx, s, HaetaeEngine.COMPACT, new FixedRandom(r))
                            .sign(msg, ctx);
                    assertArrayEquals(c, a, p + " " + s + " " + t);
                    assertTrue(new HaetaeVerifier(kp.publicKey()).verify(msg, ctx, a), p + " " + s + " " + t);
                }
            }
        }
    }
}
