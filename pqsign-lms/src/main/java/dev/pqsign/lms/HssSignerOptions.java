package dev.pqsign.lms;

import dev.pqsign.core.StateStore;
import java.util.Objects;

/**
 * How {@link HssStatefulSigner#open(StateStore, HssSignerOptions)} sets up a signer. Immutable: start from
 * {@link #defaults()} and change what you need with the {@code with...} methods.
 */
public final class HssSignerOptions {
    /** Default memory budget per tree for kept nodes: a height-20 tree with n = 32 fits whole. */
    public static final long DEFAULT_TREE_CACHE_BYTES = 64L << 20;

    private static final HssSignerOptions DEFAULTS = new HssSignerOptions(1, 0, false, false, DEFAULT_TREE_CACHE_BYTES);

    private final int batch;
    private final int threads;
    private final boolean reserveAhead;
    private final boolean verifyAfterSign;
    private final long treeCacheBytes;

    private HssSignerOptions(
            int batch, int threads, boolean reserveAhead, boolean verifyAfterSign, long treeCacheBytes) {
        this.batch = batch;
        this.threads = threads;
        this.reserveAhead = reserveAhead;
        this.verifyAfterSign = verifyAfterSign;
        this.treeCacheBytes = treeCacheBytes;
    }

    /**
     * Batch 1 (no index lost on a crash), one tree-building thread per core, no reserving ahead,
     * no verify-after-sign, {@value #DEFAULT_TREE_CACHE_BYTES} bytes of nodes per tree.
     *
     * @return the default options
     */
    public static HssSignerOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Indices reserved per durable write: 1 = one fsync per signature; larger batches sign faster
     * and lose at most {@code batch - 1} unused indices on a crash ({@code batch} reserving ahead).
     *
     * @param batch indices per reservation, at least 1
     * @return a new value with only that option changed
     * @throws IllegalArgumentException if {@code batch < 1}
     */
    public HssSignerOptions withBatch(int batch) {
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be at least 1, got " + batch);
        }
        return new HssSignerOptions(batch, threads, reserveAhead, verifyAfterSign, treeCacheBytes);
    }

    /**
     * Threads used to rebuild the trees when the key is opened.
     *
     * @param threads the number of threads, at least 1
     * @return a new value with only that option changed
     * @throws IllegalArgumentException if {@code threads < 1}
     */
    public HssSignerOptions withThreads(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        return new HssSignerOptions(batch, threads, reserveAhead, verifyAfterSign, treeCacheBytes);
    }

    /**
     * Reserve the next batch, and do each signature's upkeep, in the background.
     *
     * @param reserveAhead true to reserve and do the upkeep on a background thread
     * @return a new value with only that option changed
     */
    public HssSignerOptions withReserveAhead(boolean reserveAhead) {
        return new HssSignerOptions(batch, threads, reserveAhead, verifyAfterSign, treeCacheBytes);
    }

    /**
     * Verify every bottom-level signature before it is released (about twice the hashing of a
     * signature).
     *
     * @param verifyAfterSign true to verify each signature
     * @return a new value with only that option changed
     */
    public HssSignerOptions withVerifyAfterSign(boolean verifyAfterSign) {
        return new HssSignerOptions(batch, threads, reserveAhead, verifyAfterSign, treeCacheBytes);
    }

    /**
     * Memory for the nodes of one tree. A tree whose 2^(h+1) nodes do not fit keeps only those
     * of height k and above, k the smallest height for which they fit, and the nodes below k of
     * the 2^k leaves in use; then the next 2^k leaves are rebuilt while the current ones sign,
     * about one leaf per signature more.
     *
     * @param bytes the budget, 1 KiB … 1 GiB
     * @return a new value with only that option changed
     * @throws IllegalArgumentException if {@code bytes} is out of range
     */
    public HssSignerOptions withTreeCacheBytes(long bytes) {
        if (bytes < 1024 || bytes > (1L << 30)) {
            throw new IllegalArgumentException("tree cache must be 1 KiB to 1 GiB, got " + bytes + " bytes");
        }
        return new HssSignerOptions(batch, threads, reserveAhead, verifyAfterSign, bytes);
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
     * Whether every signature is verified before it is released.
     *
     * @return true if verifying after signing
     */
    public boolean verifyAfterSign() {
        return verifyAfterSign;
    }

    /**
     * Memory budget for one tree's nodes.
     *
     * @return bytes
     */
    public long treeCacheBytes() {
        return treeCacheBytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HssSignerOptions other
                && batch == other.batch
                && threads == other.threads
                && reserveAhead == other.reserveAhead
                && verifyAfterSign == other.verifyAfterSign
                && treeCacheBytes == other.treeCacheBytes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(batch, threads, reserveAhead, verifyAfterSign, treeCacheBytes);
    }

    @Override
    public String toString() {
        return "HssSignerOptions[batch=" + batch + ", threads=" + (threads == 0 ? "cores" : String.valueOf(threads))
                + ", reserveAhead=" + reserveAhead + ", verifyAfterSign=" + verifyAfterSign + ", treeCacheBytes="
                + treeCacheBytes + "]";
    }
}
