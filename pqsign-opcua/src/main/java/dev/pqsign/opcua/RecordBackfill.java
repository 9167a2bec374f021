package dev.pqsign.opcua;

import dev.pqsign.opcua.internal.HistoryReader;
import dev.pqsign.telemetry.operator.KeyHistory;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;

/**
 * The ordering half of a {@link RecordSubscription} (its worker thread only): the backfill from the
 * sensor's history after every new subscription, and the rule that once the history was not read
 * to its end (a backfill cut off, or a value the consumer deferred) nothing is delivered until a
 * backfill reads it to the end again. A live value delivered first would make everything the
 * history still holds before it look lost (a false gap, then false replays).
 */
final class RecordBackfill {
    private static final System.Logger LOG = System.getLogger(RecordBackfill.class.getName());

    /** Hands values to the consumer in order: how many it judged (fewer than given: the next one was deferred). */
    @FunctionalInterface
    interface Delivery {
        int deliver(List<DataValue> values, boolean live, KeyHistory history);
    }

    /** Runs a task on the worker after a delay. */
    @FunctionalInterface
    interface Later {
        void run(Runnable task, long millis);
    }

    private final String name;
    private final RecordSubscription.Consumer consumer;
    private final Delivery delivery;
    private final Later later;
    private final AtomicLong backfilled = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    /** Values held back while behind. */
    private final AtomicLong deferred = new AtomicLong();
    /** Of those, the ones no complete backfill has read again yet. */
    private final AtomicLong heldBack = new AtomicLong();

    private volatile boolean behind;
    private boolean retryScheduled;
    private OpcUaClient client;
    private NodeId recordNode;
    private KeyHistory history;

    RecordBackfill(String name, RecordSubscription.Consumer consumer, Delivery delivery, Later later) {
        this.name = name;
        this.consumer = consumer;
        this.delivery = delivery;
        this.later = later;
    }

    /** The backfill of a new subscription, queued on the worker ahead of its live values. */
    void afterSubscribing(OpcUaClient c, NodeId node, KeyHistory h) {
        client = c;
        recordNode = node;
        history = h;
        consumer.backfillStarting(h);
        try {
            read();
        } finally {
            consumer.backfillEnded();
        }
    }

    /** A live value: delivered, or held back while behind. */
    void live(DataValue value, KeyHistory h) {
        if (behind) {
            hold(); // read again by the next complete backfill
            return;
        }
        if (delivery.deliver(List.of(value), true, h) < 1) {
            hold();
            fallBehind();
        }
    }

    /**
     * Reads the history from the consumer's position to its end, delivering it a page (one
     * HistoryRead response) at a time: the consumer finishes each page's work at once, e.g. one
     * flush for the replay marks of all readings it accepted from the page.
     */
    private void read() {
        boolean retry = behind;
        behind = false;
        Optional<Instant> from = consumer.backfillFrom();
        if (from.isEmpty()) {
            long lost = heldBack.getAndSet(0);
            if (lost > 0) {
                LOG.log(
                        Level.WARNING,
                        "{0}: {1} values held back cannot be read again: no position in the sensor''s history",
                        name,
                        lost);
            }
            return;
        }
        // OPC UA times are 100 ns ticks: round up so "after the last accepted" stays after it.
        Instant start = from.get();
        Instant tick = Instant.ofEpochSecond(start.getEpochSecond(), start.getNano() / 100 * 100L);
        if (tick.isBefore(start)) {
            start = tick.plusNanos(100);
        }
        KeyHistory h = history;
        try {
            HistoryReader.Outcome o = HistoryReader.readPages(client, recordNode, start, page -> {
                if (!behind) {
                    int judged = delivery.deliver(page, false, h);
                    backfilled.addAndGet(Math.min(page.size(), judged + 1L)); // the deferred one counts
                    if (judged < page.size()) {
                        hold();
                        fallBehind();
                    }
                }
            });
            if (o instanceof HistoryReader.NoHistory n) {
                LOG.log(Level.INFO, "{0}: no history of {1} ({2})", name, recordNode.getIdentifier(), n.status());
            }
        } catch (UaException | RuntimeException e) {
            failures.incrementAndGet();
            // (MessageFormat: a quote must be doubled, or the arguments are not substituted)
            LOG.log(
                    retry ? Level.DEBUG : Level.WARNING,
                    "{0}: backfill from the sensor''s history failed: {1}",
                    name,
                    RecordSubscription.describe(e));
            fallBehind();
            return;
        }
        if (!behind && heldBack.getAndSet(0) > 0) {
            LOG.log(Level.INFO, "{0}: the sensor''s history was read to the end again", name);
        }
    }

    private void hold() {
        deferred.incrementAndGet();
        heldBack.incrementAndGet();
    }

    /** The history was not read to the end: hold back what arrives until a backfill reads it to the end. */
    private void fallBehind() {
        if (!behind) {
            behind = true;
            LOG.log(Level.WARNING, "{0}: readings are held back until the sensor''s history can be read again", name);
        }
        if (!retryScheduled) {
            retryScheduled = true;
            later.run(
                    () -> {
                        retryScheduled = false;
                        if (behind && recordNode != null) {
                            read();
                        }
                    },
                    RecordSubscription.RECONNECT_INTERVAL_MILLIS);
        }
    }

    long backfilled() {
        return backfilled.get();
    }

    long failures() {
        return failures.get();
    }

    long deferred() {
        return deferred.get();
    }

    /** Nothing lost without a report: values received but never delivered, at close. */
    void reportHeldBack() {
        if (behind && heldBack.get() > 0) {
            LOG.log(
                    Level.WARNING,
                    "{0}: {1} values received since the sensor''s history was last read to the end were"
                            + " not judged (held back for a backfill that never completed)",
                    name,
                    heldBack.get());
        }
    }
}
