package dev.pqsign.testing;

import dev.pqsign.core.StateStore;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.Objects;

/**
 * A {@link StateStore} that keeps the state in this object's memory, for tests and benchmarks: the
 * state survives a "restart" only as long as the same object is reused, so a real signer on it would
 * reuse indices after a process restart. Never use it for a key that signs anything that matters.
 *
 * <p>Writes can be made to fail ({@link #failNextWrites(int)}) to test the fail-closed paths, and the
 * stored bytes can be inspected ({@link #bytes()}) or replaced behind a signer's back
 * ({@link #overwrite(byte[])}: a restored backup, a foreign or corrupt file). Every method is
 * synchronized, so {@link #update} is atomic among threads as the {@link StateStore} contract asks.
 */
public final class MemoryStateStore implements StateStore {
    private final String name;
    private byte[] state;
    private int failNextWrites;
    private int writes;

    private MemoryStateStore(String name, byte[] initial) {
        this.name = Objects.requireNonNull(name, "name");
        this.state = initial == null ? null : initial.clone();
    }

    /**
     * A store that holds no state yet ({@link #read()} fails until {@link #create}); it describes
     * itself as {@code memory:name}.
     *
     * @param name names the store in messages
     * @return an empty store
     */
    public static MemoryStateStore empty(String name) {
        return new MemoryStateStore("memory:" + name, null);
    }

    /**
     * A store that already holds {@code initial} (copied; not counted as a write); it describes
     * itself as {@code memory}.
     *
     * @param initial the state it holds
     * @return a store holding a copy of {@code initial}
     */
    public static MemoryStateStore holding(byte[] initial) {
        return new MemoryStateStore("memory", Objects.requireNonNull(initial, "initial"));
    }

    /**
     * Makes the next {@code n} writes throw {@link IOException} without changing the state
     * ({@code Integer.MAX_VALUE}: every write until told otherwise; 0: none).
     *
     * @param n how many of the next writes fail
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public synchronized void failNextWrites(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n must not be negative, got " + n);
        }
        failNextWrites = n;
    }

    /**
     * Number of successful writes ({@link #create} and {@link #update}) so far.
     *
     * @return the count of successful writes
     */
    public synchronized int writes() {
        return writes;
    }

    /**
     * A copy of the stored bytes.
     *
     * @return a copy of the current state
     * @throws IllegalStateException if the store holds no state
     */
    public synchronized byte[] bytes() {
        if (state == null) {
            throw new IllegalStateException(describe() + " holds no state");
        }
        return state.clone();
    }

    /**
     * Replaces the stored bytes without counting a write (a restored backup, a foreign file).
     *
     * @param bytes the new state (copied)
     */
    public synchronized void overwrite(byte[] bytes) {
        state = bytes.clone();
    }

    @Override
    public synchronized byte[] read() throws IOException {
        if (state == null) {
            throw new NoSuchFileException(describe());
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
            throw new IOException(describe() + " already exists");
        }
        write(initial);
    }

    private void write(byte[] bytes) throws IOException {
        if (failNextWrites > 0) {
            if (failNextWrites != Integer.MAX_VALUE) {
                failNextWrites--;
            }
            throw new IOException("injected write failure at " + describe() + " (disk full)");
        }
        state = bytes.clone();
        writes++;
    }

    @Override
    public String describe() {
        return name;
    }

    @Override
    public void close() {}
}
