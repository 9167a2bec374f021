package dev.pqsign.telemetry;

import dev.pqsign.core.StateStore;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * TEST DOUBLE of {@link StateStore}: keeps the state in memory (it survives "restarts" as long as
 * the same object is reused) and can be told to fail the next writes, to test fail-closed paths.
 */
public final class InMemoryStateStore implements StateStore {

    private final String name;
    private byte[] state;
    private final AtomicInteger failNextWrites = new AtomicInteger();
    private final AtomicInteger writes = new AtomicInteger();

    public InMemoryStateStore(String name) {
        this.name = name;
    }

    /** Makes the next {@code n} writes throw {@link IOException} without changing the state. */
    public void failNextWrites(int n) {
        failNextWrites.set(n);
    }

    /** Number of successful durable writes so far. */
    public int writes() {
        return writes.get();
    }

    /** Overwrites the stored bytes directly (simulates a corrupted or foreign file). */
    public synchronized void overwrite(byte[] bytes) {
        state = bytes.clone();
    }

    @Override
    public synchronized byte[] read() throws IOException {
        if (state == null) {
            throw new NoSuchFileException(name);
        }
        return state.clone();
    }

    @Override
    public synchronized byte[] update(StateUpdate fn) throws IOException {
        byte[] next = fn.apply(read());
        write(next);
        return next.clone();
    }

    @Override
    public synchronized void create(byte[] initial) throws IOException {
        if (state != null) {
            throw new IOException(name + " already exists");
        }
        write(initial);
    }

    private void write(byte[] bytes) throws IOException {
        if (failNextWrites.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IOException("injected write failure at " + name);
        }
        state = bytes.clone();
        writes.incrementAndGet();
    }

    @Override
    public String describe() {
        return "memory:" + name;
    }

    @Override
    public void close() {
    }
}
