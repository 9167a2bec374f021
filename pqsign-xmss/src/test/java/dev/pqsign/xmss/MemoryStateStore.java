package dev.pqsign.xmss;

import dev.pqsign.core.StateStore;
import java.io.IOException;

/** In-memory {@link StateStore} test double whose writes can be made to fail. */
final class MemoryStateStore implements StateStore {
    byte[] bytes;
    boolean failWrites;
    int writes;

    MemoryStateStore(byte[] initial) {
        this.bytes = initial.clone();
    }

    @Override
    public synchronized byte[] read() {
        return bytes.clone();
    }

    @Override
    public synchronized byte[] update(StateUpdate fn) throws IOException {
        byte[] next = fn.apply(bytes.clone());
        if (failWrites) {
            throw new IOException("injected write failure (disk full)");
        }
        bytes = next.clone();
        writes++;
        return next;
    }

    @Override
    public synchronized void create(byte[] initial) throws IOException {
        if (bytes != null) {
            throw new IOException("exists");
        }
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
