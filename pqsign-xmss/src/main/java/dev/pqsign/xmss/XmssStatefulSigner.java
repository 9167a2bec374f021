package dev.pqsign.xmss;

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
 * Signs with an XMSS / XMSS^MT key whose state lives in a {@link StateStore}, and never reuses an
 * index:
 * <ol>
 * <li>Reserve: under the store's lock (threads and processes), re-read the state file, check it is
 * still this key's and has not been rolled back, advance its next index by the batch size, and write
 * it durably. Only then is any index of that batch used.</li>
 * <li>Sign with the reserved indices in order, from in-memory caches (trees of every layer and the
 * upper layers' WOTS+ signatures), rebuilt from the seeds when the key is opened.</li>
 * </ol>
 * If the state cannot be written, the signer releases no signature and becomes unusable. A crash
 * loses at most the unused rest of the current batch (batch 1 by default: nothing is lost).
 *
 * <p><b>Reserving ahead</b> (optional, {@link Options#withReserveAhead(boolean)}): as soon as a
 * signature uses the last reserved index, the next batch is reserved on a background thread, so the
 * durable write (an fsync or two, often longer than the signature itself) overlaps the time until
 * the next message instead of delaying it; the first batch is reserved that way as soon as the key
 * is opened. The rule is unchanged: no index is used before its
 * reservation is on disk; a sign that finds no reserved index waits for the reservation. The price
 * is one index more lost on a crash (up to {@code batch} reserved but unused indices instead of
 * {@code batch - 1}; batch 1: at most one), and a persistence failure is
 * reported by the next {@code sign} instead of the one that used the last index.
 * The same background thread also does the signature's upkeep: the leaf of the next bottom tree
 * that every signature pays for (most of a signer's hashing) is computed after {@code sign} has
 * returned, not before, so a signature is ready as soon as its own WOTS+ chains are. A sign that
 * arrives before the upkeep ran does it first, under the same lock, so signatures and caches are
 * exactly those of the synchronous order.
 *
 * <p><b>Kept chain values</b>: computing a leaf of the next bottom tree (one per signature) passes
 * through every value of its WOTS+ chains; by default they are kept until that key pair signs, so a
 * bottom-layer WOTS+ signature is copied instead of hashed, about a third fewer hash calls per
 * signature. The bottom tree built when the key is opened keeps those of its unused key pairs the
 * same way, so a freshly opened key (a rolled-over sensor's first readings) hashes no more per
 * signature than later. The price is memory: two tables of 2^(h/d) × len × 16 × n bytes (1 MiB each
 * for the study's sets; only trees whose table fits in 2 MiB keep one), holding secret chain values
 * for as long as the seeds they come from are in memory; a key pair's values are wiped once it
 * signs, the rest when the signer closes. {@link Options#withKeepChains(boolean)} turns it off.
 * Signatures are the same either way.
 *
 * <p><b>Hashing</b>: by default the steady state allocates nothing per hash call, so no garbage
 * collection is triggered by signing; {@link Options#withMidstates(boolean)} resumes cached SHA-256
 * mid-states instead (fewer compressions per signature, but short-lived garbage with every one), for
 * signers that care about throughput more than about GC pauses. What each costs on one machine:
 * docs/stateful-signing.md.
 *
 * <pre>{@code
 * try (StateStore store = FileStateStore.open(Path.of("key.state"));
 *      XmssStatefulSigner signer = XmssStatefulSigner.open(store)) {
 *     byte[] sig = signer.sign(message);
 * }
 * }</pre>
 */
public final class XmssStatefulSigner implements StatefulSigner {
    private final StateStore store;
    private final XmssPrivateKey key;
    private final XmssPublicKey publicKey;
    private final byte[] keyId;
    private final int batch;
    private final ReentrantLock lock = new ReentrantLock();
    private final XmssSigning signing;
    private final CachedAuthPaths cache;
    /** Verifies each signature before it is released, or {@code null}. */
    private final XmssVerifier afterSign;

    // Written under the lock; volatile so that remaining() and nextIndex() read them without it
    // (a status read must not wait for the background upkeep, which holds the lock).
    private volatile long next;
    private long reservedEnd;
    private volatile long endIndex;
    private boolean usable = true;
    private boolean closed;
    /** Why the key became unusable (reported again by every later sign). */
    private RuntimeException failure;
    /** Background reservations and upkeep, or {@code null} when doing both synchronously. */
    private final ExecutorService ahead;
    /** Index whose {@link CachedAuthPaths#afterSign} has not run yet, or -1. */
    private long upkeepAfter = -1;

    /**
     * How {@link #open(StateStore, Options)} sets up a signer. Immutable: start from
     * {@link #defaults()} and change what you need with the {@code with...} methods, each of which
     * returns a new value.
     */
    public static final class Options {
        private static final Options DEFAULTS = new Options(1, 0, false, false, true, false);

        private final int batch;
        /** 0: one thread per available core, decided when the signer opens. */
        private final int threads;

        private final boolean reserveAhead;
        private final boolean midstates;
        private final boolean keepChains;
        private final boolean verifyAfterSign;

        private Options(
                int batch,
                int threads,
                boolean reserveAhead,
                boolean midstates,
                boolean keepChains,
                boolean verifyAfterSign) {
            this.batch = batch;
            this.threads = threads;
            this.reserveAhead = reserveAhead;
            this.midstates = midstates;
            this.keepChains = keepChains;
            this.verifyAfterSign = verifyAfterSign;
        }

        /**
         * Batch 1 (no index lost on a crash), one tree-building thread per core, no reserving ahead,
         * allocation-free hashing, chain values kept.
         *
         * @return the default options
         */
        public static Options defaults() {
            return DEFAULTS;
        }

        /**
         * Indices reserved per durable write: 1 = one fsync per signature; larger batches sign faster
         * and lose at most {@code batch - 1} unused indices on a crash ({@code batch} with reserving
         * ahead).
         *
         * @param batch indices per reservation, at least 1
         * @return a new value with only that option changed
         * @throws IllegalArgumentException if {@code batch < 1}
         */
        public Options withBatch(int batch) {
            if (batch < 1) {
                throw new IllegalArgumentException("batch must be at least 1, got " + batch);
            }
            return new Options(batch, threads, reserveAhead, midstates, keepChains, verifyAfterSign);
        }

        /**
         * Threads used to rebuild tall trees when the key is opened.
         *
         * @param threads the number of threads, at least 1
         * @return a new value with only that option changed
         * @throws IllegalArgumentException if {@code threads < 1}
         */
        public Options withThreads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1, got " + threads);
            }
            return new Options(batch, threads, reserveAhead, midstates, keepChains, verifyAfterSign);
        }

        /**
         * Reserve the next batch, and do each signature's upkeep, in the background (see the class
         * description of the signer).
         *
         * @param reserveAhead true to reserve and do the upkeep on a background thread
         * @return a new value with only that option changed
         */
        public Options withReserveAhead(boolean reserveAhead) {
            return new Options(batch, threads, reserveAhead, midstates, keepChains, verifyAfterSign);
        }

        /**
         * Resume cached SHA-256 mid-states while signing (see the class description of the signer);
         * false: allocation-free hashing.
         *
         * @param midstates true to resume mid-states
         * @return a new value with only that option changed
         */
        public Options withMidstates(boolean midstates) {
            return new Options(batch, threads, reserveAhead, midstates, keepChains, verifyAfterSign);
        }

        /**
         * Keep the bottom layer's WOTS+ chain values from when the next tree's leaves are computed
         * until they sign (see the class description of the signer); false: recompute them.
         *
         * @param keepChains true to keep the chain values
         * @return a new value with only that option changed
         */
        public Options withKeepChains(boolean keepChains) {
            return new Options(batch, threads, reserveAhead, midstates, keepChains, verifyAfterSign);
        }

        /**
         * Verify every signature before it is released (about as much hashing again as the
         * signature itself); one that does not verify is not released and the signer becomes
         * unusable ({@link SigningFaultException}).
         *
         * @param verifyAfterSign true to verify each signature
         * @return a new value with only that option changed
         */
        public Options withVerifyAfterSign(boolean verifyAfterSign) {
            return new Options(batch, threads, reserveAhead, midstates, keepChains, verifyAfterSign);
        }

        /**
         * Whether every signature is verified before it is released.
         *
         * @return true if verifying after signing
         */
        public boolean verifyAfterSign() {
            return verifyAfterSign;
        }

        /**
         * Indices reserved per durable write.
         *
         * @return the batch size, at least 1
         */
        public int batch() {
            return batch;
        }

        /**
         * Tree-building threads.
         *
         * @return the number set, or the number of available cores unless set
         */
        public int threads() {
            return threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
        }

        /**
         * Whether the next batch is reserved in the background.
         *
         * @return true if reserving ahead
         */
        public boolean reserveAhead() {
            return reserveAhead;
        }

        /**
         * Whether signing resumes cached SHA-256 mid-states.
         *
         * @return true for mid-states, false for allocation-free hashing
         */
        public boolean midstates() {
            return midstates;
        }

        /**
         * Whether the bottom layer's chain values are kept until they sign.
         *
         * @return true if chain values are kept
         */
        public boolean keepChains() {
            return keepChains;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Options other
                    && batch == other.batch
                    && threads == other.threads
                    && reserveAhead == other.reserveAhead
                    && midstates == other.midstates
                    && keepChains == other.keepChains
                    && verifyAfterSign == other.verifyAfterSign;
        }

        @Override
        public int hashCode() {
            return Objects.hash(batch, threads, reserveAhead, midstates, keepChains, verifyAfterSign);
        }

        @Override
        public String toString() {
            return "Options[batch=" + batch + ", threads=" + (threads == 0 ? "cores" : String.valueOf(threads))
                    + ", reserveAhead=" + reserveAhead + ", midstates=" + midstates + ", keepChains=" + keepChains
                    + ", verifyAfterSign=" + verifyAfterSign + "]";
        }
    }

    private XmssStatefulSigner(StateStore store, XmssKeyState state, Options o) {
        this.store = store;
        this.key = state.key();
        this.publicKey = key.publicKey();
        this.keyId = publicKey.keyId();
        this.batch = o.batch();
        // By default the steady state hashes without mid-state clones: nothing allocated per hash
        // call, so no GC pause lands in the signing loop (docs/stateful-signing.md, "Latency").
        this.signing = new XmssSigning(key, o.midstates()).cachingUpperLayers();
        this.cache = new CachedAuthPaths(key, signing.treeHash, o.threads(), o.keepChains());
        this.afterSign = o.verifyAfterSign() ? new XmssVerifier(publicKey) : null;
        this.next = state.nextIndex();
        this.reservedEnd = state.nextIndex();
        this.endIndex = state.endIndex();
        this.ahead = o.reserveAhead()
                ? Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "xmss-reserve-ahead " + store.describe());
                    t.setDaemon(true);
                    return t;
                })
                : null;
    }

    /**
     * Opens the key in {@code store} with {@link Options#defaults()}: one index reserved per signature,
     * so no index is lost on a crash.
     *
     * @param store the key's state store; the signer uses it until {@link #close()} and does not close it
     * @return a signer positioned at the stored next index
     * @throws KeyFormatException if the stored bytes are not a valid key state
     * @throws StatePersistenceException if the store cannot be read
     */
    public static XmssStatefulSigner open(StateStore store) {
        return open(store, Options.defaults());
    }

    /**
     * Opens the key in {@code store} as {@code options} say.
     *
     * @param store the key's state store; the signer uses it until {@link #close()} and does not close it
     * @param options batch size, threads and signing options
     * @return a signer positioned at the stored next index
     * @throws KeyFormatException if the stored bytes are not a valid key state
     * @throws StatePersistenceException if the store cannot be read
     */
    public static XmssStatefulSigner open(StateStore store, Options options) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(options, "options");
        XmssKeyState state;
        try {
            state = XmssKeyState.decode(store.read());
        } catch (KeyFormatException e) {
            throw new KeyFormatException(store.describe() + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new StatePersistenceException("cannot read key state " + store.describe() + ": " + e.getMessage(), e);
        }
        XmssStatefulSigner s = new XmssStatefulSigner(store, state, options);
        if (state.remaining() > 0) {
            s.cache.prepare(state.nextIndex(), state.endIndex());
            s.signing.prepareUpperLayers(state.nextIndex(), s.cache);
            if (s.ahead != null) {
                // The first batch too is reserved before anyone asks, so the first signature
                // (a sensor's first reading, a rolled-over key's first) does not wait for an fsync.
                s.ahead.execute(s::workAhead);
            }
        }
        return s;
    }

    /**
     * Creates the state of a new key in {@code store} (fails if one exists) and returns it.
     *
     * @param store the empty store that will hold the key's state
     * @param key a key just made by {@link XmssKeyGenerator}
     * @return the stored state, at index 0
     * @throws IOException if a state already exists in {@code store} or it cannot be written durably
     * @throws IllegalArgumentException if {@code key} was read from a key state (see
     *     {@link XmssKeyState#fresh})
     * @throws IllegalStateException if {@code key} was destroyed
     */
    public static XmssKeyState create(StateStore store, XmssPrivateKey key) throws IOException {
        XmssKeyState state = XmssKeyState.fresh(key);
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
                result = new IndexedSignature(idx, signing.sign(idx, message, cache));
            } catch (SigningFaultException e) {
                throw fail(e);
            }
            if (afterSign != null && !afterSign.verify(message, result.signature())) {
                throw fail(new SigningFaultException("the " + key.parameterSet().setName() + " signature at index "
                        + idx + " does not verify (computation fault); it was not released"));
            }
            upkeepAfter = idx;
            if (ahead == null) {
                upkeep();
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

    /** Brings the caches up to date for the index after the last signature, if that is still to do. */
    private void upkeep() {
        if (upkeepAfter >= 0) {
            long signed = upkeepAfter;
            upkeepAfter = -1;
            cache.afterSign(signed, endIndex);
        }
    }

    /**
     * The background half: the last signature's upkeep, then the next reservation if the batch is
     * used up. Re-checks under the lock, because a sign may have done either in the meantime; a
     * reservation failure makes the key unusable exactly as in {@link #reserve()}, and the next sign
     * reports it.
     */
    private void workAhead() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            upkeep();
            if (usable && next >= reservedEnd && next < endIndex) {
                reserve();
            }
        } catch (KeyExhaustedException | StatePersistenceException e) {
            // Recorded by reserve() (exhaustion is rediscovered by the next sign); nothing to add.
        } finally {
            lock.unlock();
        }
    }

    /** Durably advances the stored next index by up to {@code batch} before any of them is used. */
    private void reserve() {
        long[] range = new long[2];
        try {
            store.update(current -> {
                XmssKeyState s = decodeOwn(current);
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
        next = range[0];
        reservedEnd = range[1];
    }

    /** Makes the key unusable for good and remembers why. */
    private <E extends RuntimeException> E fail(E e) {
        usable = false;
        failure = e;
        return e;
    }

    private XmssKeyState decodeOwn(byte[] current) {
        XmssKeyState s = XmssKeyState.decode(current);
        if (!Secrets.constantTimeEquals(s.key().publicKey().keyId(), keyId)) {
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
    public XmssParameterSet parameterSet() {
        return key.parameterSet();
    }

    /**
     * The key's public key (also after {@link #close()}).
     *
     * @return the public key
     */
    public XmssPublicKey publicKey() {
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
            // Let a reservation in flight finish (it must not be interrupted: an interrupt closes the
            // state file's channel); queued ones see `closed` and do nothing.
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
                        XmssKeyState s = decodeOwn(current);
                        if (s.nextIndex() != reservedEnd) {
                            return current;
                        }
                        return s.withNextIndex(next).encode();
                    });
                } catch (IOException | RuntimeException e) {
                    // Keeping the reservation only wastes indices; it never risks reuse.
                }
            }
            signing.wipe();
            cache.wipe();
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
        return "XmssStatefulSigner[" + key.parameterSet().setName() + ", " + store.describe() + "]";
    }
}
