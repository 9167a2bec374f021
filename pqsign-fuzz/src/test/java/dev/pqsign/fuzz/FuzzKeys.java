package dev.pqsign.fuzz;

import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.lms.HssKeyGenerator;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssPrivateKey;
import dev.pqsign.xmss.WotsDerivation;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssPublicKey;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The fixed keys, messages and contexts every fuzz target and the {@link SeedCorpus} generator share.
 * Each key comes from a named {@link DeterministicRandom} stream, so a target rebuilds exactly the
 * key its committed seed signatures were made with.
 */
final class FuzzKeys {
    /** The XMSS sets of the differential target: XMSS^MT with n = 32 (two shapes) and single-tree XMSS. */
    static final List<XmssParameterSet> XMSS_SETS = List.of(
            XmssParameterSet.XMSSMT_SHA2_20_2_256,
            XmssParameterSet.XMSSMT_SHA2_20_4_256,
            XmssParameterSet.XMSS_SHA2_10_256);

    static final List<HaetaeParameterSet> HAETAE_SETS = List.of(HaetaeParameterSet.values());

    /**
     * The HSS sets of {@code LmsSignatureFuzzTest}: each of the four hash families (SHA-256,
     * SHA-256/192, SHAKE256/256, SHAKE256/192), one and two levels, every Winternitz width; height-5
     * trees, so a target JVM makes its keys in milliseconds.
     */
    static final List<HssParameterSet> LMS_SETS = List.of(
            lmsSet("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4+LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8"),
            lmsSet("LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W2"),
            lmsSet("LMS_SHAKE_M32_H5/LMOTS_SHAKE_N32_W8"),
            lmsSet("LMS_SHAKE_M24_H5/LMOTS_SHAKE_N24_W1+LMS_SHAKE_M24_H5/LMOTS_SHAKE_N24_W4"));

    private static final HssPrivateKey[] LMS = new HssPrivateKey[LMS_SETS.size()];

    /** The message every seed signature signs. */
    static final byte[] MESSAGE = "pqsign fuzz seed message".getBytes(StandardCharsets.UTF_8);
    /** The HAETAE context string of the seed signatures. */
    static final byte[] CONTEXT = "pqsign-fuzz".getBytes(StandardCharsets.US_ASCII);

    private static final XmssPrivateKey[] XMSS = new XmssPrivateKey[XMSS_SETS.size()];
    private static final HaetaeKeyPair[] HAETAE = new HaetaeKeyPair[HAETAE_SETS.size()];

    private FuzzKeys() {}

    /** The XMSS key of {@code set} (RFC 8391 derivation, so BouncyCastle computes the same key). */
    static synchronized XmssPrivateKey xmss(XmssParameterSet set) {
        int i = XMSS_SETS.indexOf(set);
        if (XMSS[i] == null) {
            XMSS[i] = XmssKeyGenerator.fromSeed(
                    set,
                    WotsDerivation.RFC8391,
                    DeterministicRandom.bytes("xmss " + set.setName(), 3 * set.n()),
                    1,
                    null);
        }
        return XMSS[i];
    }

    /**
     * The public key of {@link #xmss}, read from the committed material (the targets do not spend
     * their time on key generation under coverage instrumentation; {@link SeedCorpusTest} checks the
     * file is what {@link #xmss} gives).
     */
    private static HssParameterSet lmsSet(String name) {
        return HssParameterSet.byName(name).orElseThrow(() -> new IllegalStateException(name));
    }

    /** The HSS key of {@code set}: SEED and I from the stream named after the set. */
    static synchronized HssPrivateKey lms(HssParameterSet set) {
        int i = LMS_SETS.indexOf(set);
        if (LMS[i] == null) {
            byte[] seedAndId =
                    DeterministicRandom.bytes("lms " + set.setName(), set.top().n() + 16);
            LMS[i] = HssKeyGenerator.fromSeed(
                    set,
                    java.util.Arrays.copyOf(seedAndId, set.top().n()),
                    java.util.Arrays.copyOfRange(seedAndId, set.top().n(), seedAndId.length),
                    1,
                    null);
        }
        return LMS[i];
    }

    static XmssPublicKey xmssPublicKey(XmssParameterSet set) {
        return XmssPublicKey.decode(set, resource(SeedCorpus.material(xmssPublicKeyFile(set))));
    }

    static String xmssPublicKeyFile(XmssParameterSet set) {
        return SeedCorpus.fileName(set.setName()) + ".pub";
    }

    /** A committed resource of this module, by its path from the test resources root. */
    static byte[] resource(String path) {
        try (InputStream in = FuzzKeys.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + path + "; regenerate the seed corpus");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The HAETAE key pair of {@code set}. */
    static synchronized HaetaeKeyPair haetae(HaetaeParameterSet set) {
        int i = HAETAE_SETS.indexOf(set);
        if (HAETAE[i] == null) {
            HAETAE[i] = HaetaeKeyPairGenerator.fromSeed(
                    set, DeterministicRandom.bytes("haetae " + set.setName(), HaetaeKeyPairGenerator.SEED_BYTES));
        }
        return HAETAE[i];
    }
}
