package dev.pqsign.lms;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Secrets;
import dev.pqsign.core.SigningFaultException;
import dev.pqsign.core.StatePersistenceException;
import dev.pqsign.core.StateStore;
import dev.pqsign.core.StatefulSigner;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongFunction;

/**
 * Signs with an HSS key whose state lives in a {@link StateStore}, and never reuses an index:
 * <ol>
 * <li>Reserve: under the store's lock (threads and processes), re-read the state file, check it is
 * still this key's and has not been rolled back, advance its next index by the batch size, and write
 * it durably. Only then is any index of that batch used.</li>
 * <li>Sign with the reserved indices in order, from in-memory trees rebuilt from the SEED when the
 * key is opened; each lower level's tree comes with the signature of its public key by the level
 * above, computed once, verified before it is first used, and kept.</li>
 * </ol>
 * If the state cannot be written, the signer releases no signature and becomes unusable. A crash
 * loses at most the unused rest of the current batch (batch 1 by default: nothing is lost).
 *
 * <p><b>No signing spikes</b>: the next tree of each lower level, and when a tree keeps only a
 * block of its leaves' nodes (a tree larger than {@link HssSignerOptions#withTreeCacheBytes} allows) the
 * next block, are built a few hash chains per signature, paced so that they are complete when the
 * index reaches them; no signature rebuilds a tree.
 *
 * <p><b>Reserving ahead</b> ({@link HssSignerOptions#withReserveAhead(boolean)}): as soon as a signature
 * uses the last reserved index, the next batch is reserved on a background thread, which also does
 * the signature's upkeep (its share of the next trees); a sign that arrives first does both itself,
 * under the same lock. No index is used before its reservation is on disk; a crash can lose one
 * reserved index more, and a persistence failure is reported by the next {@code sign}.
 *
 * <p><b>Fault checks</b>: every upper-level signature is verified before use; the randomizers and
 * lower trees' SEED and I are derived twice and compared; a block rebuilt from the SEED is compared
 * with the nodes kept above it. {@link HssSignerOptions#withVerifyAfterSign(boolean)} also verifies every
 * bottom-level signature before it is released. A failed check throws
 * {@link SigningFaultException} and makes the signer unusable (docs/stateful-signing.md).
 *
 * <pre>{@code
 * try (StateStore store = FileStateStore.open(Path.of("key.state"));
 *      HssStatefulSigner signer = HssStatefulSigner.open(store)) {
 *     byte[] sig = signer.sign(message);
 * }
 * }</pre>
 */
public final class HssStatefulSigner implements StatefulSigner {
    private final StateStore store;
    private final HssPrivateKey key;
    private final HssPublicKey publicKey;
    private final byte[] keyId;
    private final int batch;
    private final ReentrantLock lock = new ReentrantLock();
    private final HssSigning signing;

    // Written under the lock; volatile so that remaining() and nextIndex() read them without it.
    private volatile long next;
    private long reservedEnd;
    private volatile long endIndex;
    private boolean usable = true;
    private boolean closed;
    private RuntimeException failure;
    private final ExecutorService ahead;
    /** Index whose upkeep has not run yet, or -1. */
    private long upkeepAfter = -1;

    private HssStatefulSigner(StateStore store, HssKeyState state, HssSignerOptions o) {
        this.store = store;
        this.key = state.key();
        this.publicKey = key.publicKey();
        this.keyId = publicKey.keyId();
        this.batch = o.batch();
        this.signing = new HssSigning(key, state.endIndex(), o.treeCacheBytes(), o.threads(), o.verifyAfterSign());
        this.next = state.nextIndex();
        this.reservedEnd = state.nextIndex();
        this.endIndex = state.endIndex();
        this.ahead = o.reserveAhead()
                ? Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "hss-reserve-ahead " + store.describe());
                    t.setDaemon(true);
                    return t;
                })
                : null;
    }

    /**
     * Opens the key in {@code store} with {@link HssSignerOptions#defaults()}.
     *
     * @param store the key's state store; the signer uses it until {@link #close()} and does not close it
     * @return a signer positioned at the stored next index
     * @throws KeyFormatException if the stored bytes are not a valid key state
     * @throws StatePersistenceException if the store cannot be read
     * @throws SigningFaultException if the rebuilt top tree does not match the public key
     */
    public static HssStatefulSigner open(StateStore store) {
        return open(store, HssSignerOptions.defaults());
    }

    /**
     * Opens the key in {@code store} as {@code options} say, rebuilding the trees the stored next
     * index needs (the cost of a key generation of each level's tree).
     *
     * @param store the key's state store; the signer uses it until {@link #close()} and does not close it
     * @param options batch size, threads and signing options
     * @return a signer positioned at the stored next index
     * @throws KeyFormatException if the stored bytes are not a valid key state
     * @throws StatePersistenceException if the store cannot be read
     * @throws SigningFaultException if the rebuilt top tree does not match the public key
     */
    public static HssStatefulSigner open(StateStore store, HssSignerOptions options) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(options, "options");
        HssKeyState state;
        byte[] bytes = null;
        try {
            bytes = store.read();
            state = HssKeyState.decode(bytes);
        } catch (KeyFormatException e) {
            throw new KeyFormatException(store.describe() + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new StatePersistenceException("cannot read key state " + store.describe() + ": " + e.getMessage(), e);
        } finally {
            Secrets.wipe(bytes);
        }
        HssStatefulSigner s = new HssStatefulSigner(store, state, options);
        if (state.remaining() > 0) {
            try {
                s.signing.prepare(state.nextIndex());
            } catch (RuntimeException e) {
                s.signing.wipe();
                s.key.destroy();
                throw e;
            }
            if (s.ahead != null) {
                s.ahead.execute(s::workAhead);
            }
        }
        return s;
    }

    /**
     * Creates the state of a new key in {@code store} (fails if one exists) and returns it.
     *
     * @param store the empty store that will hold the key's state
     * @param key a key just made by {@link HssKeyGenerator}
     * @return the stored state, at index 0
     * @throws IOException if a state already exists in {@code store} or it cannot be written durably
     * @throws IllegalArgumentException if {@code key} was read from a key state
     * @throws IllegalStateException if {@code key} was destroyed
     */
    public static HssKeyState create(StateStore store, HssPrivateKey key) throws IOException {
        HssKeyState state = HssKeyState.fresh(key);
        byte[] bytes = state.encode();
        try {
            store.create(bytes);
        } finally {
            Secrets.wipe(bytes);
        }
        return state;
    }

    @Override
    public byte[] sign(byte[] message) {
        Objects.requireNonNull(message, "message");
        return signIndexed(i -> message).signature();
    }

    @Override
    public IndexedSignature signIndexed(LongFunction<byte[]> messageForIndex) {
        Objects.requireNonNull(messageForIndex, "messageForIndex");
        lock.lock();
        try {
            ensureUsable();
            upkeep();
            if (next >= reservedEnd) {
                reserve();
            }
            long idx = next;
            next = idx + 1;
            byte[] message = Objects.requireNonNull(messageForIndex.apply(idx), "message for index " + idx);
            IndexedSignature result;
            try {
                result = new IndexedSignature(idx, signing.sign(idx, message));
            } catch (SigningFaultException e) {
                throw fail(e);
            }
            upkeepAfter = idx;
            if (ahead == null) {
                try {
                    upkeep();
                } catch (SigningFaultException e) {
                    // Recorded by upkeep(): this signature is sound, the next sign reports the fault.
                }
            } else {
                try {
                    ahead.execute(this::workAhead);
                } catch (RejectedExecutionException e) {
                    // close() has begun: no upkeep or reservation is needed, and this signature stands.
                }
            }
            return result;
        } finally {
            lock.unlock();
        }
    }

    /** Brings the trees up to date for the index after the last signature, if that is still to do. */
    private void upkeep() {
        if (upkeepAfter >= 0) {
            long signed = upkeepAfter;
            upkeepAfter = -1;
            try {
                signing.afterSign(signed);
            } catch (SigningFaultException e) {
                throw fail(e);
            }
        }
    }

    private void workAhead() {
        lock.lock();
        try {
            if (closed || !usable) {
                return;
            }
            upkeep();
            if (next >= reservedEnd && next < endIndex) {
                reserve();
            }
        } catch (KeyExhaustedException | StatePersistenceException | SigningFaultException e) {
            // Recorded by reserve() or fail(); the next sign reports it.
        } finally {
            lock.unlock();
        }
    }

    /** Durably advances the stored next index by up to {@code batch} before any of them is used. */
    private void reserve() {
        long[] range = new long[2];
        try {
            store.update(current -> {
                HssKeyState s;
                try {
                    s = decodeOwn(current);
                } finally {
                    Secrets.wipe(current);
                }
                try {
                    if (s.nextIndex() < reservedEnd) {
                        throw new RollbackException(s.nextIndex(), reservedEnd);
                    }
                    if (s.remaining() == 0) {
                        range[0] = s.nextIndex();
                        range[1] = s.endIndex();
                        throw new ExhaustedInside();
                    }
                    long start = s.nextIndex();
                    long end = Math.min(s.endIndex(), start + batch);
                    range[0] = start;
                    range[1] = end;
                    endIndex = s.endIndex();
                    return s.withNextIndex(end).encode();
                } finally {
                    s.key().destroy();
                }
            });
        } catch (ExhaustedInside e) {
            next = reservedEnd = range[0];
            endIndex = range[1];
            throw new KeyExhaustedException(
                    "key " + store.describe() + " is exhausted: all indices up to " + endIndex + " are used");
        } catch (RollbackException e) {
            throw fail(new StatePersistenceException("key state " + store.describe() + " went back from index "
                    + e.expected + " to " + e.found + " (restored backup or copied file?); refusing to sign"));
        } catch (KeyFormatException e) {
            throw fail(new StatePersistenceException(
                    "key state " + store.describe() + " changed under the signer: " + e.getMessage(), e));
        } catch (IOException | RuntimeException e) {
            throw fail(new StatePersistenceException(
                    "cannot persist key state " + store.describe() + ": " + e.getMessage()
                            + "; the key is unusable in this process until reopened",
                    e));
        }
        long start = range[0];
        if (start != next) {
            // Another signer of this key file used indices meanwhile: move there (the trees follow).
            reposition(start);
        }
        next = start;
        reservedEnd = range[1];
    }

    /** Moves the trees to {@code index} after another signer of the same file took the indices before it. */
    private void reposition(long index) {
        try {
            signing.moveTo(index);
        } catch (SigningFaultException e) {
            throw fail(e);
        }
    }

    /** Makes the key unusable for good and remembers why. */
    private <E extends RuntimeException> E fail(E e) {
        usable = false;
        failure = e;
        return e;
    }

    private HssKeyState decodeOwn(byte[] current) {
        HssKeyState s = HssKeyState.decode(current);
        if (!Secrets.constantTimeEquals(s.key().publicKey().keyId(), keyId)) {
            s.key().destroy();
            throw new KeyFormatException("it now holds the state of a different key");
        }
        return s;
    }

    private void ensureUsable() {
        if (closed) {
            throw new IllegalStateException("signer is closed");
        }
        if (!usable) {
            String why = failure != null ? " (" + failure.getMessage() + ")" : "";
            if (failure instanceof SigningFaultException) {
                throw new SigningFaultException("key " + store.describe() + " is unusable after a signing fault" + why);
            }
            throw new StatePersistenceException(
                    "key " + store.describe() + " is unusable after an earlier persistence failure; reopen it" + why,
                    failure);
        }
    }

    @Override
    public HssParameterSet parameterSet() {
        return key.parameterSet();
    }

    /**
     * The key's public key (also after {@link #close()}).
     *
     * @return the public key
     */
    public HssPublicKey publicKey() {
        return publicKey;
    }

    @Override
    public long remaining() {
        return Math.max(0, endIndex - next);
    }

    @Override
    public long nextIndex() {
        return next;
    }

    /**
     * Indices reserved on disk but not yet used by this signer (lost if the process dies now).
     *
     * @return the number of reserved, unused indices
     */
    public long reservedUnused() {
        lock.lock();
        try {
            return reservedEnd - next;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isUsable() {
        lock.lock();
        try {
            return usable && !closed;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gives unused reserved indices back when that is provably safe (the stored next index is still
     * exactly our reservation end, so nobody else has used or reserved beyond it), then wipes the key.
     */
    @Override
    public void close() {
        if (ahead != null) {
            ahead.shutdown();
        }
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (usable && reservedEnd > next) {
                try {
                    store.update(current -> {
                        HssKeyState s = decodeOwn(current);
                        try {
                            if (s.nextIndex() != reservedEnd) {
                                return current;
                            }
                            return s.withNextIndex(next).encode();
                        } finally {
                            s.key().destroy();
                        }
                    });
                } catch (IOException | RuntimeException e) {
                    // Keeping the reservation only wastes indices; it never risks reuse.
                }
            }
            signing.wipe();
            key.destroy();
        } finally {
            lock.unlock();
        }
    }

    /** Thrown inside the store update to abort without writing. */
    private static final class ExhaustedInside extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ExhaustedInside() {
            super(null, null, false, false);
        }
    }

    private static final class RollbackException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final long found;
        final long expected;

        RollbackException(long found, long expected) {
            super(null, null, false, false);
            this.found = found;
            this.expected = expected;
        }
    }

    @Override
    public String toString() {
        return "HssStatefulSigner[" + key.parameterSet().setName() + ", " + store.describe() + "]";
    }
}
