package dev.pqsign.state;

import dev.pqsign.core.StateStore;
import dev.pqsign.core.StatefulSigner;

/**
 * How one stateful scheme's signer is opened, for {@link SigningChild} (which makes an instance by
 * class name in the child JVM: implementations have a no-argument constructor) and for the parent
 * side of {@link SignerCrashRun} and {@link MultiProcessSigning}.
 */
public interface SignerOpener {

    /**
     * Opens the key in {@code store}.
     *
     * @param batch indices reserved per durable write
     * @param threads tree-building threads
     * @param reserveAhead whether to reserve in the background
     */
    StatefulSigner open(StateStore store, int batch, int threads, boolean reserveAhead);
}
