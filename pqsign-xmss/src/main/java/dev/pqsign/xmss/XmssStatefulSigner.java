package dev.pqsign.xmss;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.SigningFaultException;
import dev.pqsign.core.StatePersistenceException;
import dev.pqsign.core.StateStore;
import dev.pqsign.core.StatefulSigner;
import dev.pqsign.core.internal.OneTimeSigning;
import dev.pqsign.core.internal.StatefulSignerCore;
import java.io.IOException;
import java.util.Objects;
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
    private final XmssSigning signing;
    private final CachedAuthPaths cache;
    /** Verifies each signature before it is released, or {@code null}. */
    private final XmssVerifier releaseCheck;
    /**
     * Reservation, batches, reserving ahead, the lock, failures and close: the part every stateful
     * scheme shares; this class adds the XMSS trees, layer caches and signatures.
     */
    private final StatefulSignerCore<XmssKeyState> core;

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
        // By default the steady state hashes without mid-state clones: nothing allocated per hash
        // call, so no GC pause lands in the signing loop (docs/stateful-signing.md, "Latency").
        this.signing = new XmssSigning(key, o.midstates()).cachingUpperLayers();
        this.cache = new CachedAuthPaths(key, signing.treeHash, o.threads(), o.keepChains());
        this.releaseCheck = o.verifyAfterSign() ? new XmssVerifier(publicKey) : null;
        this.core = new StatefulSignerCore<>(
                store, XmssKeyState.FORMAT, state, o.batch(), o.reserveAhead(), "xmss", new LayerSigning());
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
        return new XmssStatefulSigner(store, StatefulSignerCore.read(store, XmssKeyState.FORMAT), options);
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
        return StatefulSignerCore.create(store, XmssKeyState.FORMAT, XmssKeyState.fresh(key));
    }

    @Override
    public byte[] sign(byte[] message) {
        return core.sign(message);
    }

    @Override
    public IndexedSignature signIndexed(LongFunction<byte[]> messageForIndex) {
        return core.signIndexed(messageForIndex);
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
        return core.remaining();
    }

    @Override
    public long nextIndex() {
        return core.nextIndex();
    }

    /**
     * Indices reserved on disk but not yet used by this signer (lost if the process dies now).
     *
     * @return the number of reserved, unused indices
     */
    public long reservedUnused() {
        return core.reservedUnused();
    }

    @Override
    public boolean isUsable() {
        return core.isUsable();
    }

    /**
     * Gives unused reserved indices back when that is provably safe (the stored next index is still
     * exactly our reservation end, so nobody else has used or reserved beyond it), then wipes the key.
     */
    @Override
    public void close() {
        core.close();
    }

    /** The XMSS half of the signer: the layers' trees and WOTS+ signatures at reserved indices. */
    private final class LayerSigning implements OneTimeSigning {
        @Override
        public void prepare(long next, long end) {
            cache.prepare(next, end);
            signing.prepareUpperLayers(next, cache);
        }

        @Override
        public byte[] sign(long index, byte[] message) {
            byte[] signature = signing.sign(index, message, cache);
            if (releaseCheck != null && !releaseCheck.verify(message, signature)) {
                throw new SigningFaultException("the " + key.parameterSet().setName() + " signature at index " + index
                        + " does not verify (computation fault); it was not released");
            }
            return signature;
        }

        @Override
        public void afterSign(long signed, long end) {
            cache.afterSign(signed, end);
        }

        @Override
        public void moveTo(long index) {
            // Nothing to move: the auth-path cache builds the trees of whatever index it is asked for.
        }

        @Override
        public void destroy() {
            signing.wipe();
            cache.wipe();
            key.destroy();
        }
    }

    @Override
    public String toString() {
        return "XmssStatefulSigner[" + key.parameterSet().setName() + ", " + store.describe() + "]";
    }
}
