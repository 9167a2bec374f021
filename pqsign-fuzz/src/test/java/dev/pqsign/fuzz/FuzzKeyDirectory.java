package dev.pqsign.fuzz;

import dev.pqsign.keys.SensorKeyDirectory;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.WotsDerivation;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * The fixed sensor key directory of {@link HandoverLogFuzzTest}: generation 0 and {@value #CURRENT}
 * handovers made by the real code ({@link SensorKeyDirectory#handOver}), each retired generation
 * compacted into {@code handovers.pqhc} at once, as {@code KeyRollover} does. So the log holds
 * generations 1 to {@code CURRENT - 1}, and only the current generation has a directory.
 *
 * <p>The keys are XMSS^MT-SHA2_10/2_256 (the sensors' set: two layers of 32-leaf trees, so opening a
 * signer is cheap) from named {@link DeterministicRandom} streams with the RFC 8391 derivation
 * (BouncyCastle computes the same keys), and the handover times are fixed, so the directory and its
 * log are the same on every build and {@link SeedCorpus} can commit the log. The next keys are
 * prepared by hand, in the layout {@link SensorKeyDirectory#prepareNext} writes (which draws a
 * random key), and each generation from 1 on gets a {@code certificate.pem} so the log's
 * certificate field is not empty.
 */
final class FuzzKeyDirectory {
    static final XmssParameterSet SET = XmssParameterSet.XMSSMT_SHA2_10_2_256;
    /** The current generation; 1 to {@code CURRENT - 1} are in the log. */
    static final int CURRENT = 5;

    static final Instant ISSUED_AT = Instant.parse("2026-12-02T00:00:00Z");

    private FuzzKeyDirectory() {}

    /** The key of generation {@code g}. */
    static XmssPrivateKey key(int g) {
        return XmssKeyGenerator.fromSeed(
                SET,
                WotsDerivation.RFC8391,
                DeterministicRandom.bytes("handover log generation " + g, 3 * SET.n()),
                1,
                null);
    }

    /** The {@code certificate.pem} of generation {@code g} (its content is not parsed by the directory). */
    static byte[] certificate(long g) {
        return ("certificate chain of generation " + g + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Creates the directory at {@code dir} (which must not exist).
     *
     * @return the handover records to generations 1 to {@link #CURRENT}, as the directory made them
     */
    static List<SignedKeyHandover> build(Path dir) throws IOException {
        XmssPrivateKey first = key(0);
        SensorKeyDirectory.create(dir, first);
        first.destroy();
        try (SensorKeyDirectory d = SensorKeyDirectory.open(dir, SensorKeyDirectory.Options.defaults())) {
            for (int g = 1; g <= CURRENT; g++) {
                Path gdir = d.generationDir(g);
                Files.createDirectories(gdir);
                XmssPrivateKey next = key(g);
                Files.write(
                        gdir.resolve(SensorKeyDirectory.PUBLIC_KEY),
                        next.publicKey().encoded());
                Files.write(
                        gdir.resolve(SensorKeyDirectory.STATE),
                        XmssKeyState.fresh(next).encode());
                next.destroy();
                Files.write(d.certificateFile(g), certificate(g));
                d.handOver(ISSUED_AT.plusSeconds(g));
                d.destroyRetired();
                d.compact();
            }
            if (d.generation() != CURRENT) {
                throw new IllegalStateException("built generation " + d.generation());
            }
            return d.handovers();
        }
    }

    /** The public key of generation {@code g} (generating it again: cheap for this set). */
    static PqPublicKey publicKey(int g) {
        XmssPrivateKey k = key(g);
        PqPublicKey pub = PqPublicKey.of(k.publicKey());
        k.destroy();
        return pub;
    }
}
