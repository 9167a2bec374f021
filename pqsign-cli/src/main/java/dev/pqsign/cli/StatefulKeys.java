package dev.pqsign.cli;

import dev.pqsign.keys.OpenedPrivateKey;
import dev.pqsign.keys.PrivateKeys;
import dev.pqsign.lms.HssSignerOptions;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How the commands open a stateful key file (an XMSS or an HSS {@code key.state}) to sign: through
 * {@link PrivateKeys#open}, which tells the schemes apart, with tree work on all cores.
 */
final class StatefulKeys {
    private StatefulKeys() {}

    /**
     * Opens {@code key} with a stateful signer reserving {@code batch} indices per state write,
     * waiting up to {@code lockTimeoutSeconds} for the state's lock.
     *
     * @throws IOException if the state store cannot be opened
     */
    static OpenedPrivateKey open(Path key, int batch, int lockTimeoutSeconds) throws IOException {
        int threads = Runtime.getRuntime().availableProcessors();
        OpenedPrivateKey k = PrivateKeys.open(
                key,
                PrivateKeys.Options.defaults()
                        .withLockTimeout(Duration.ofSeconds(lockTimeoutSeconds))
                        .withXmss(XmssStatefulSigner.Options.defaults()
                                .withBatch(batch)
                                .withThreads(threads))
                        .withHss(HssSignerOptions.defaults().withBatch(batch).withThreads(threads)));
        if (k.statefulSigner().isEmpty()) {
            k.close();
            throw CliException.usage(key + ": changed while it was opened (no longer a key state)");
        }
        return k;
    }
}
