package dev.pqsign.opcua.internal;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads every sensor server and operator connection of this process hand to Milo instead of
 * Milo's shared defaults: one Netty event loop per available processor, and a work-stealing pool
 * with one worker per processor for Milo's callbacks (service requests, publishing timers, response
 * completion, notification delivery).
 *
 * <p>Why: a reading crosses Milo's executor about ten times (publishing timer, Publish response,
 * notification delivery, Read request, Read response completion, next Publish request, ...). Milo's
 * default executor is a cached pool on a {@code SynchronousQueue}, so every one of those hand-offs
 * wakes a parked thread: measured 17–20 context switches per reading on that pool alone with 10
 * sensors and one operator in one process. A {@link ForkJoinPool} queues the tasks instead, so a
 * worker that is already running takes the next one without a wake-up, and its blocking waits on
 * futures ({@code CompletableFuture.get}, used by Milo's synchronous calls) are compensated by a
 * spare thread, so tasks that wait for other tasks cannot starve the pool. Netty's default of two
 * event loops per processor likewise wakes more parked loops than two cores need.
 *
 * <p>The threads are daemons and live as long as the process, like Milo's own shared resources.
 */
public final class MiloThreads {

    private static EventLoopGroup eventLoop;
    private static ExecutorService executor;

    private MiloThreads() {}

    private static int processors() {
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /** The shared Netty event loops, created on first use. */
    public static synchronized EventLoopGroup eventLoop() {
        if (eventLoop == null) {
            AtomicInteger n = new AtomicInteger();
            eventLoop = new NioEventLoopGroup(processors(), r -> {
                Thread t = new Thread(r, "pqsign-netty-" + n.getAndIncrement());
                t.setDaemon(true);
                return t;
            });
        }
        return eventLoop;
    }

    /** The shared executor for Milo's callbacks, created on first use. */
    public static synchronized ExecutorService executor() {
        if (executor == null) {
            AtomicInteger n = new AtomicInteger();
            ForkJoinPool.ForkJoinWorkerThreadFactory factory = pool -> {
                ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
                t.setName("pqsign-milo-" + n.getAndIncrement());
                t.setDaemon(true);
                return t;
            };
            // asyncMode: tasks are events, run them first in first out.
            executor = new ForkJoinPool(
                    processors(),
                    factory,
                    (t, e) -> System.getLogger(MiloThreads.class.getName())
                            .log(System.Logger.Level.ERROR, "uncaught exception in a Milo task on " + t.getName(), e),
                    true);
        }
        return executor;
    }
}
