package dev.pqsign.bench.report;

import dev.pqsign.core.StateStore;
import java.io.IOException;

/**
 * A state store in memory, so signing benchmarks measure the signature computation and not the
 * disk's fsync latency (reported separately; see docs/state-durability.md).
 *
 * <p>Kept apart from the test double of the same name in pqsign-xmss's tests: this one ships in the
 * benchmarks jar, which should not carry a module's test classes, and the libraries offer no
 * store that forgets its state: a signer on one would reuse indices after a restart.
 */
public final class MemoryStateStore implements StateStore {
    private byte[] bytes;

    public MemoryStateStore(byte[] initial) {
        this.bytes = initial.clone();
    }

    @Override
    public synchronized byte[] read() {
        return bytes.clone();
    }

    @Override
    public synchronized byte[] update(StateUpdate fn) throws IOException {
        bytes = fn.apply(bytes.clone()).clone();
        return bytes.clone();
    }

    @Override
    public synchronized void create(byte[] initial) {
        bytes = initial.clone();
    }

    @Override
    public String describe() {
        return "memory";
    }

    @Override
    public void close() {
    }
}
