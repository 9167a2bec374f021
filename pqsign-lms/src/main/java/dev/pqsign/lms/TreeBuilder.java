package dev.pqsign.lms;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * Builds a whole LMS tree from its SEED and I (key generation, and rebuilding the trees in use when
 * a key is opened): the leaves are split into equal subtrees computed on {@code threads} threads,
 * each with its own hashing context, then the nodes above the subtrees are combined.
 */
final class TreeBuilder {
    private TreeBuilder() {}

    /**
     * @param keepBlock the block whose nodes below height k are kept (the one in use), or 0
     * @param progress receives the cumulative number of leaves done, or {@code null}
     */
    static StoredTree build(TreeShape s, byte[] id, byte[] seed, int keepBlock, int threads, LongConsumer progress) {
        byte[] top = new byte[s.topBytes()];
        byte[] kept = s.k == 0 ? null : new byte[s.blockBytes()];
        int h = s.h;
        int split = 0;
        while (threads > 1 && split < h - s.k && (1 << split) < 4 * threads) {
            split++;
        }
        int c = h - split;
        if (split == 0) {
            LeafRange r = new LeafRange(s, id, seed, 0, h, top, false, keepBlock, kept);
            runReporting(r, new TreeHash(s.params), progress, new AtomicLong());
            r.wipe();
        } else {
            buildInParallel(s, id, seed, keepBlock, kept, top, c, threads, progress);
            TreeHash th = new TreeHash(s.params);
            for (int j = c; j < h; j++) {
                for (int t = 0; t < (1 << (h - j - 1)); t++) {
                    int r = (1 << (h - j - 1)) + t;
                    th.interior(id, r, top, 2 * r * s.m, top, (2 * r + 1) * s.m, top, r * s.m);
                }
            }
        }
        return new StoredTree(s, id.clone(), seed.clone(), top, keepBlock, kept);
    }

    private static void buildInParallel(
            TreeShape s,
            byte[] id,
            byte[] seed,
            int keepBlock,
            byte[] kept,
            byte[] top,
            int c,
            int threads,
            LongConsumer progress) {
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "lms-tree-build");
            t.setDaemon(true);
            return t;
        });
        AtomicLong done = new AtomicLong();
        ThreadLocal<TreeHash> contexts = ThreadLocal.withInitial(() -> new TreeHash(s.params));
        try {
            List<Future<?>> parts = new ArrayList<>();
            for (int i = 0; i < (1 << (s.h - c)); i++) {
                int start = i << c;
                parts.add(pool.submit(() -> {
                    LeafRange r = new LeafRange(s, id, seed, start, c, top, false, keepBlock, kept);
                    runReporting(r, contexts.get(), progress, done);
                    r.wipe();
                }));
            }
            for (Future<?> f : parts) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("LMS tree build interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException("LMS tree build failed", e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private static void runReporting(LeafRange r, TreeHash th, LongConsumer progress, AtomicLong done) {
        int p = th.params.otsType().p();
        while (!r.isDone()) {
            r.step(th);
            if (progress != null && r.unitsDone() % p == 0) {
                progress.accept(done.incrementAndGet());
            }
        }
        th.wipe();
    }
}
