package dev.pqsign.cli;

import dev.pqsign.core.StateStore;
import dev.pqsign.core.StatefulSigner;
import dev.pqsign.keys.PrivateKeyFormat;
import dev.pqsign.lms.HssSignerOptions;
import dev.pqsign.lms.HssStatefulSigner;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.util.Optional;

/**
 * The one place the commands open a stateful key file (an XMSS or an HSS {@code key.state}, told
 * apart by {@link PrivateKeyFormat}'s magic) as a signer, so no command guesses the scheme itself.
 */
final class StatefulKeys {
    private StatefulKeys() {}

    /** The stateful format of a key file's first bytes, or empty for HAETAE keys and anything else. */
    static Optional<PrivateKeyFormat> statefulFormat(byte[] head) {
        return PrivateKeyFormat.of(head)
                .filter(f -> f == PrivateKeyFormat.XMSS_KEY_STATE || f == PrivateKeyFormat.HSS_KEY_STATE);
    }

    /** A signer over {@code store} reserving {@code batch} indices per state write, tree work on all cores. */
    static StatefulSigner open(PrivateKeyFormat format, StateStore store, int batch) {
        int threads = Runtime.getRuntime().availableProcessors();
        if (format == PrivateKeyFormat.HSS_KEY_STATE) {
            return HssStatefulSigner.open(
                    store, HssSignerOptions.defaults().withBatch(batch).withThreads(threads));
        }
        if (format != PrivateKeyFormat.XMSS_KEY_STATE) {
            throw new IllegalArgumentException(format + " is not a stateful key format");
        }
        return XmssStatefulSigner.open(
                store, XmssStatefulSigner.Options.defaults().withBatch(batch).withThreads(threads));
    }

    /** The public key of a signer {@link #open} made. */
    static PqPublicKey publicKey(StatefulSigner signer) {
        if (signer instanceof HssStatefulSigner h) {
            return PqPublicKey.of(h.publicKey());
        }
        return PqPublicKey.of(((XmssStatefulSigner) signer).publicKey());
    }
}
