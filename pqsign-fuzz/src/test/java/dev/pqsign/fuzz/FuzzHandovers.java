package dev.pqsign.fuzz;

import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.keys.KeyChain;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * The fixed key chain of the handover targets: generation 0 is the XMSS^MT-SHA2_20/2_256 key of
 * {@link FuzzKeys}, handed over to the XMSS^MT-SHA2_20/4_256 key (generation 1), which hands over to
 * the XMSS-SHA2_10_256 key (generation 2). Each handover is signed by the real code
 * ({@link SignedKeyHandover#sign}) under index 0 of the old key.
 */
final class FuzzHandovers {
    /** The keys of generations 0, 1 and 2. */
    static final List<XmssParameterSet> GENERATIONS = FuzzKeys.XMSS_SETS;

    /** The committed handover records (material), generation 0 → 1 and 1 → 2. */
    static final String[] FILES = {"handover-1.pqho", "handover-2.pqho"};

    static final Instant ISSUED_AT = Instant.parse("2026-06-01T08:00:00Z");

    private FuzzHandovers() {}

    /** The public key of generation {@code g}, from the committed material. */
    static PqPublicKey key(int g) {
        return PqPublicKey.of(FuzzKeys.xmssPublicKey(GENERATIONS.get(g)));
    }

    /** The committed handover record to generation {@code g} (1 or 2). */
    static SignedKeyHandover handover(int g) {
        return SignedKeyHandover.decode(FuzzKeys.resource(SeedCorpus.material(FILES[g - 1])));
    }

    /** The chain at generation 0, 1 or 2, reached by following the committed handovers. */
    static KeyChain chainAt(int generation) {
        KeyChain chain = KeyChain.startingAt(key(0));
        for (int g = 1; g <= generation; g++) {
            KeyChain.Step step = chain.follow(handover(g));
            if (step.outcome() != HandoverOutcome.FOLLOWED) {
                throw new IllegalStateException("committed handover " + g + ": " + step.outcome());
            }
            chain = step.chain();
        }
        return chain;
    }

    /** Signs the two handovers with the real signer (for {@link SeedCorpus}); {@code tmp} holds the key states. */
    static SignedKeyHandover[] sign(Path tmp) throws IOException {
        byte[] chainId = KeyChain.startingAt(
                        PqPublicKey.of(FuzzKeys.xmss(GENERATIONS.get(0)).publicKey()))
                .chainId();
        SignedKeyHandover[] out = new SignedKeyHandover[2];
        for (int g = 1; g <= 2; g++) {
            XmssParameterSet oldSet = GENERATIONS.get(g - 1);
            try (FileStateStore store = FileStateStore.open(tmp.resolve("handover-" + g + ".state"))) {
                XmssStatefulSigner.create(store, FuzzKeys.xmss(oldSet));
                try (XmssStatefulSigner signer = XmssStatefulSigner.open(store)) {
                    out[g - 1] = SignedKeyHandover.sign(
                            signer,
                            PqPublicKey.of(FuzzKeys.xmss(oldSet).publicKey()),
                            chainId,
                            g,
                            PqPublicKey.of(FuzzKeys.xmss(GENERATIONS.get(g)).publicKey()),
                            ISSUED_AT.plusSeconds(g));
                }
            }
        }
        return out;
    }
}
