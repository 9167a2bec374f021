package dev.pqsign.opcua.upstream.internal;

import dev.pqsign.telemetry.upstream.LostFacts;
import dev.pqsign.telemetry.upstream.LostInSensor;
import dev.pqsign.telemetry.upstream.LostUpstream;
import dev.pqsign.telemetry.upstream.UpstreamEvent;
import dev.pqsign.telemetry.upstream.UpstreamNoValue;
import dev.pqsign.telemetry.upstream.UpstreamTime;
import dev.pqsign.telemetry.upstream.UpstreamUnsupported;
import dev.pqsign.telemetry.upstream.UpstreamValue;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The bounded queue between the upstream's notifications (Milo's threads, which must never wait)
 * and the signer (which takes one text at a time). When it is full, a node's further values are
 * not queued: for each node the newest value is kept and the ones it replaced are counted, with
 * the source times of the first and last; once the queue has drained, a {@link LostInSensor} fact
 * and the newest value go out for each such node, in the order the nodes first overflowed.
 * Connection facts are kept the same way: the newest few, the rest counted as {@link LostFacts}.
 * So the signed stream always says how much it does not carry, and memory stays bounded.
 */
public final class FactQueue {
    private final int capacity;
    private final ArrayDeque<UpstreamEvent> queue = new ArrayDeque<>();
    /** Per node, while overflowing: what replaced what. Insertion order = first overflow. */
    private final Map<String, Overflow> overflow = new LinkedHashMap<>();
    /** Connection facts that came while overflowing, newest kept. */
    private final ArrayDeque<UpstreamEvent> lateFacts = new ArrayDeque<>();

    private long lostFacts;
    private boolean closed;

    private static final class Overflow {
        long lost;
        UpstreamTime from;
        UpstreamTime to;
        boolean lostUpstream;
        UpstreamEvent newest;
    }

    /**
     * An empty queue.
     *
     * @param capacity most queued texts (values and facts), at least 1
     */
    public FactQueue(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        this.capacity = capacity;
    }

    /**
     * Adds a fact; never waits.
     *
     * @param e a value or a connection fact
     */
    public synchronized void offer(UpstreamEvent e) {
        if (closed) {
            return;
        }
        String node = nodeOf(e);
        if (overflow.isEmpty() && lateFacts.isEmpty() && lostFacts == 0 && queue.size() < capacity) {
            queue.add(e);
            notifyAll();
            return;
        }
        if (node == null) {
            lateFacts.add(e);
            if (lateFacts.size() > Math.max(1, capacity / 4)) {
                lateFacts.removeFirst();
                lostFacts++;
            }
            return;
        }
        Overflow o = overflow.computeIfAbsent(node, k -> new Overflow());
        if (e instanceof LostUpstream) {
            o.lostUpstream = true; // goes out before the node's newest value, as it came
            return;
        }
        if (o.newest != null) {
            UpstreamTime replaced = sourceOf(o.newest);
            if (o.lost == 0) {
                o.from = replaced;
            }
            o.to = replaced;
            o.lost++;
        }
        o.newest = e;
    }

    /**
     * Takes the next fact, waiting for one.
     *
     * @return the next fact, or null once {@link #close()} was called
     * @throws InterruptedException if interrupted while waiting
     */
    public synchronized UpstreamEvent take() throws InterruptedException {
        while (true) {
            if (closed) {
                return null;
            }
            if (!queue.isEmpty()) {
                return queue.removeFirst();
            }
            if (lostFacts > 0 || !lateFacts.isEmpty() || !overflow.isEmpty()) {
                drainOverflow();
                continue;
            }
            wait();
        }
    }

    /** Moves what was held back into the (empty) queue, lost counts first. */
    private void drainOverflow() {
        if (lostFacts > 0) {
            queue.add(new LostFacts(lostFacts));
            lostFacts = 0;
        }
        queue.addAll(lateFacts);
        lateFacts.clear();
        for (Iterator<Map.Entry<String, Overflow>> it = overflow.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Overflow> en = it.next();
            Overflow o = en.getValue();
            if (o.lostUpstream) {
                queue.add(new LostUpstream(en.getKey()));
            }
            if (o.lost > 0) {
                queue.add(new LostInSensor(en.getKey(), o.lost, o.from, o.to));
            }
            if (o.newest != null) {
                queue.add(o.newest);
            }
            it.remove();
        }
    }

    /** Ends {@link #take()}: it returns null from now on. */
    public synchronized void close() {
        closed = true;
        notifyAll();
    }

    private static String nodeOf(UpstreamEvent e) {
        if (e instanceof UpstreamValue v) {
            return v.node();
        }
        if (e instanceof UpstreamNoValue v) {
            return v.node();
        }
        if (e instanceof LostUpstream l) {
            return l.node();
        }
        return e instanceof UpstreamUnsupported u ? u.node() : null;
    }

    private static UpstreamTime sourceOf(UpstreamEvent e) {
        if (e instanceof UpstreamValue v) {
            return v.source();
        }
        if (e instanceof UpstreamNoValue v) {
            return v.source();
        }
        return e instanceof UpstreamUnsupported u ? u.source() : null;
    }
}
