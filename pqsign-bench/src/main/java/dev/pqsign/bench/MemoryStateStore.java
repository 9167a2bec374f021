package dev.pqsign.bench;

import dev.pqsign.core.StateStore;
import java.io.IOException;

/**
 * A state store in memory, so signing benchmarks measure the signature computation and not the
 * disk's fsync latency (reported separately; see docs/state-durability.md).
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
