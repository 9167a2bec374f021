package dev.pqsign.telemetry;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.IndexedSigner;
import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.ParameterSet;
import dev.pqsign.core.Signer;
import dev.pqsign.core.StatePersistenceException;
import dev.pqsign.core.StateStore;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.telemetry.internal.StateCodec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongFunction;

/**
 * Gives a stateless signer (HAETAE) the index discipline of a stateful one: indices come from a
 * sequence counter persisted in a {@link StateStore}, reserved durably before any signature under
 * them is released, so a restart continues after the last reserved index and never reuses one.
 *
 * <p>Indices are reserved in blocks of {@code reservationBlock}: one durable write per block. A crash
 * skips at most {@code reservationBlock - 1} indices (harmless: the replay guard only needs them to
 * increase). Block size 1 writes once per reading.
 *
 * <p>Counter state (13 bytes, see {@code docs/formats/signed-reading.md}): ASCII {@code "PQSQ"},
 * version byte 1, u64 big-endian first index not yet reserved.
 *
 * <p>Thread-safe; concurrent callers get distinct, increasing indices.
 */
public final class SequencedSigner implements IndexedSigner, AutoCloseable {

    static final byte[] MAGIC = {'P', 'Q', 'S', 'Q'};
    static final int VERSION = 1;
    static final int STATE_BYTES = 13;

    private final Signer signer;
    private final StateStore store;
    private final int reservationBlock;
    private long next;
    private long limit;
    private boolean failed;

    private SequencedSigner(Signer signer, StateStore store, int reservationBlock, long start) {
        this.signer = signer;
        this.store = store;
        this.reservationBlock = reservationBlock;
        this.next = start;
        this.limit = start;
    }

    /**
     * Opens (or, if the store is empty, creates at 0) the counter and wraps {@code signer}.
     *
     * @param signer the stateless signer to wrap
     * @param store holds the counter
     * @param reservationBlock indices reserved per durable write, at least 1
     * @return the signer, continuing after the last reserved index
     * @throws KeyFormatException if the stored counter is not a valid counter state
     * @throws IOException if the store cannot be read or created
     * @throws IllegalArgumentException if {@code reservationBlock} is below 1
     */
    public static SequencedSigner open(Signer signer, StateStore store, int reservationBlock) throws IOException {
        Objects.requireNonNull(signer, "signer");
        Objects.requireNonNull(store, "store");
        if (reservationBlock < 1) {
            throw new IllegalArgumentException("reservation block must be at least 1, got " + reservationBlock);
        }
        byte[] state = StateCodec.readOrCreate(store, encode(0));
        return new SequencedSigner(signer, store, reservationBlock, decode(state, store.describe()));
    }

    /**
     * {@link #open(Signer, StateStore, int)} with the counter in {@code counterFile} (a
     * {@link FileStateStore}), created at 0 if missing (with its parent directories).
     *
     * @param signer the stateless signer to wrap
     * @param counterFile the counter's state file
     * @param reservationBlock indices reserved per durable write, at least 1
     * @return the signer, continuing after the last reserved index
     * @throws IOException as {@link #open(Signer, StateStore, int)}, or if the directories cannot be created
     */
    public static SequencedSigner openFile(Signer signer, Path counterFile, int reservationBlock) throws IOException {
        Path file = counterFile.toAbsolutePath();
        java.nio.file.Files.createDirectories(file.getParent());
        return open(signer, FileStateStore.open(file), reservationBlock);
    }

    static byte[] encode(long nextUnreserved) {
        byte[] b = new byte[STATE_BYTES];
        System.arraycopy(MAGIC, 0, b, 0, 4);
        b[4] = VERSION;
        StateCodec.putLong(b, 5, nextUnreserved);
        return b;
    }

    static long decode(byte[] state, String where) {
        if (state.length != STATE_BYTES || !Arrays.equals(state, 0, 4, MAGIC, 0, 4)) {
            throw new KeyFormatException("sequence counter at " + where + " is not a PQSQ state (" + state.length
                    + " bytes, expected " + STATE_BYTES + ")");
        }
        if (state[4] != VERSION) {
            throw new KeyFormatException(
                    "sequence counter at " + where + " has version " + (state[4] & 0xff) + ", expected " + VERSION);
        }
        long v = StateCodec.getLong(state, 5);
        if (v < 0) {
            throw new KeyFormatException("sequence counter at " + where + " is negative");
        }
        return v;
    }

    @Override
    public IndexedSignature signIndexed(LongFunction<byte[]> messageForIndex) {
        long index = reserve();
        byte[] message = messageForIndex.apply(index);
        return new IndexedSignature(index, signer.sign(message));
    }

    private synchronized long reserve() {
        if (failed) {
            throw new StatePersistenceException(
                    "sequence counter at " + store.describe() + " failed earlier; signer unusable");
        }
        if (next == limit) {
            if (limit > Long.MAX_VALUE - reservationBlock) {
                throw new KeyExhaustedException("sequence counter at " + store.describe() + " is exhausted");
            }
            long want = limit + reservationBlock;
            try {
                byte[] written = store.update(cur -> {
                    long persisted = decode(cur, store.describe());
                    // Another process may have advanced the counter; never go below what it reserved.
                    return encode(Math.max(persisted, limit) + reservationBlock);
                });
                long newLimit = decode(written, store.describe());
                next = Math.max(next, newLimit - reservationBlock);
                limit = newLimit;
            } catch (IOException | RuntimeException e) {
                failed = true;
                throw new StatePersistenceException(
                        "could not reserve indices up to " + want + " at " + store.describe(), e);
            }
        }
        return next++;
    }

    /**
     * The index the next signature will use if no other process advances the counter.
     *
     * @return the next index, 0 or more
     */
    public synchronized long nextIndex() {
        return next;
    }

    @Override
    public ParameterSet parameterSet() {
        return signer.parameterSet();
    }

    /** Closes the counter store; unused reserved indices are skipped on the next open. */
    @Override
    public void close() throws IOException {
        store.close();
    }
}
