package dev.pqsign.xmss;

import dev.pqsign.core.StateStore;
import dev.pqsign.core.StatefulSigner;
import dev.pqsign.state.SignedKey;
import dev.pqsign.state.SignerOpener;
import dev.pqsign.xmss.XmssStatefulSigner.Options;

/**
 * XMSS / XMSS^MT for the shared signing tests in pqsign-state's test-jar ({@code SigningChild},
 * {@code SignerCrashRun}, {@code MultiProcessSigning}): how a child JVM opens a signer, and a key
 * whose signatures they check.
 */
final class XmssTestScheme implements SignerOpener {

    @Override
    public StatefulSigner open(StateStore store, int batch, int threads, boolean reserveAhead) {
        return XmssStatefulSigner.open(
                store, Options.defaults().withBatch(batch).withThreads(threads).withReserveAhead(reserveAhead));
    }

    /** {@code key} as the shared tests sign with it and check its signatures. */
    static SignedKey key(XmssPrivateKey key) {
        XmssParameterSet set = key.parameterSet();
        XmssVerifier verifier = new XmssVerifier(key.publicKey());
        return new SignedKey() {
            @Override
            public String scheme() {
                return "XMSS";
            }

            @Override
            public String setName() {
                return set.setName();
            }

            @Override
            public Class<XmssTestScheme> opener() {
                return XmssTestScheme.class;
            }

            @Override
            public long nextIndex(byte[] state) {
                return XmssKeyState.decode(state).nextIndex();
            }

            @Override
            public long signatureIndex(byte[] signature) {
                return XmssSignatures.index(set, signature);
            }

            @Override
            public boolean verifies(byte[] message, byte[] signature) {
                return verifier.verify(message, signature);
            }
        };
    }
}
