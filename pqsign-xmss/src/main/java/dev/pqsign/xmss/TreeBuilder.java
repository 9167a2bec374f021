package dev.pqsign.xmss;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * Builds a {@link StoredTree} for one (layer, tree) of a key, on several threads when the tree is
 * large enough to pay for them. Each thread gets its own {@link TreeHash} (hash cores are not
 * thread-safe); the leaves are split into equal chunks whose nodes land in disjoint parts of the
 * stored tree, and the few nodes above the chunks are combined on the calling thread.
 */
final class TreeBuilder {
    /** Below this many leaves a tree is built on the calling thread alone. */
    private static final int PARALLEL_MIN_LEAVES = 256;

    private TreeBuilder() {}

    /**
     * Builds with fresh mid-state-resuming contexts of {@code key} (whole-tree builds are throughput
     * work: key generation, key load, a tree the signing schedule did not precompute); the calling
     * thread's context is wiped afterwards like the workers'.
     */
    static StoredTree build(
            XmssPrivateKey key, HashAddress subtree, int height, int minHeight, int threads, LongConsumer progress) {
        TreeHash local = key.newTreeHash();
        try {
            return build(local, key::newTreeHash, subtree, height, minHeight, threads, progress);
        } finally {
            local.hasher.wipe();
        }
    }

    /**
     * Builds a whole tree like {@link #build(XmssPrivateKey, HashAddress, int, int, int, LongConsumer)}
     * on the calling thread, keeping the WOTS+ chain values of key pairs {@code keepFrom} and up in
     * {@code keep}: the bottom tree in use when a key is opened, so that its remaining key pairs sign
     * by copying like those of the trees built leaf by leaf later. Only trees small enough for a
     * {@link WotsChains} table get here, and those are built on one thread anyway.
     */
    static StoredTree buildKeepingChains(
            XmssPrivateKey key, HashAddress subtree, int height, WotsChains keep, int keepFrom) {
        TreeHash local = key.newTreeHash();
        try {
            StoredTree tree = new StoredTree(local.hasher.n, height, 0);
            buildOnThisThread(local, subtree, height, tree, keep, keepFrom);
            return tree;
        } finally {
            local.hasher.wipe();
        }
    }

    private static void buildOnThisThread(
            TreeHash local, HashAddress subtree, int height, StoredTree tree, WotsChains keep, int keepFrom) {
        byte[] root = new byte[local.hasher.n];
        local.node(subtree, height, 0, root, 0, tree, keep, keepFrom);
        tree.store(height, 0, root, 0);
    }

    static StoredTree build(
            TreeHash local,
            Supplier<TreeHash> perThread,
            HashAddress subtree,
            int height,
            int minHeight,
            int threads,
            LongConsumer progress) {
        int n = local.hasher.n;
        StoredTree tree = new StoredTree(n, height, minHeight);
        long leaves = 1L << height;
        if (threads <= 1 || leaves < PARALLEL_MIN_LEAVES) {
            buildOnThisThread(local, subtree, height, tree, null, 0);
            if (progress != null) {
                progress.accept(leaves);
            }
            return tree;
        }
        // 2^split chunks, at least 8 per thread so uneven thread speeds even out.
        int split = 0;
        while ((1L << split) < 8L * threads && split < height - 4) {
            split++;
        }
        int chunkHeight = height - split;
        int chunks = 1 << split;
        byte[] chunkRoots = new byte[chunks * n];
        AtomicLong done = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "xmss-treehash");
            t.setDaemon(true);
            return t;
        });
        // Worker contexts hold the key's seeds: remember them all so they can be wiped at the end (a
        // task still running after a failure only hashes zeros into a result nobody reads).
        Queue<TreeHash> created = new ConcurrentLinkedQueue<>();
        try {
            ThreadLocal<TreeHash> workers = ThreadLocal.withInitial(() -> {
                TreeHash th = perThread.get();
                created.add(th);
                return th;
            });
            List<Future<?>> futures = new ArrayList<>();
            for (int c = 0; c < chunks; c++) {
                final int chunk = c;
                futures.add(pool.submit(() -> {
                    TreeHash th = workers.get();
                    HashAddress adrs = subtree.copy();
                    th.node(adrs, chunkHeight, chunk, chunkRoots, chunk * n, tree);
                    long total = done.addAndGet(1L << chunkHeight);
                    if (progress != null) {
                        progress.accept(total);
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("tree computation interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("tree computation failed", e.getCause());
        } finally {
            pool.shutdownNow();
            for (TreeHash th : created) {
                th.hasher.wipe();
            }
        }
        // Combine the chunk roots upwards to the tree root.
        byte[] level = chunkRoots;
        HashAddress node = HashAddress.of(subtree, HashAddress.TYPE_HASH_TREE);
        for (int k = chunkHeight; k < height; k++) {
            int count = level.length / n / 2;
            byte[] next = new byte[count * n];
            for (int j = 0; j < count; j++) {
                local.parent(node, k, j, level, 2 * j * n, next, j * n);
                tree.store(k + 1, j, next, j * n);
            }
            level = next;
        }
        return tree;
    }
}
