package dev.pqsign.lms;

import dev.pqsign.core.StateStore;
import dev.pqsign.core.StatefulSigner;
import dev.pqsign.state.SignedKey;
import dev.pqsign.state.SignerOpener;

/**
 * HSS for the shared signing tests in pqsign-state's test-jar ({@code SigningChild},
 * {@code SignerCrashRun}, {@code MultiProcessSigning}): how a child JVM opens a signer, and a key
 * whose signatures they check.
 */
final class HssTestScheme implements SignerOpener {

    @Override
    public StatefulSigner open(StateStore store, int batch, int threads, boolean reserveAhead) {
        return HssStatefulSigner.open(
                store,
                HssSignerOptions.defaults()
                        .withBatch(batch)
                        .withThreads(threads)
                        .withReserveAhead(reserveAhead));
    }

    /** {@code key} as the shared tests sign with it and check its signatures. */
    static SignedKey key(HssPrivateKey key) {
        HssParameterSet set = key.parameterSet();
        HssVerifier verifier = new HssVerifier(key.publicKey(), set);
        return new SignedKey() {
            @Override
            public String scheme() {
                return "HSS";
            }

            @Override
            public String setName() {
                return set.setName();
            }

            @Override
            public Class<HssTestScheme> opener() {
                return HssTestScheme.class;
            }

            @Override
            public long nextIndex(byte[] state) {
                return HssKeyState.decode(state).nextIndex();
            }

            @Override
            public long signatureIndex(byte[] signature) {
                return HssSignatures.index(set, signature);
            }

            @Override
            public boolean verifies(byte[] message, byte[] signature) {
                return verifier.verify(message, signature);
            }
        };
    }
}
