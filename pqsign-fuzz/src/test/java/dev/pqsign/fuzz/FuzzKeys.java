package dev.pqsign.fuzz;

import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
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
