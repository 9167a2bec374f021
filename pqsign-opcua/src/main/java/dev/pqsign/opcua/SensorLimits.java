package dev.pqsign.opcua;

import dev.pqsign.opcua.internal.ServerLimits;
import org.eclipse.milo.opcua.stack.core.channel.EncodingLimits;

/**
 * What one client, and all clients together, may ask of a sensor's OPC UA server, set deliberately
 * rather than left at Milo's defaults (docs/telemetry.md, "Request limits"). A sensor serves a few
 * operators and consoles; what it must never do is stop signing or stop serving them because one
 * client asks for too much at once. Every value is advertised in the server's ServerCapabilities
 * object, so a well-behaved client splits its requests accordingly.
 */
final class SensorLimits {

    /** Sessions at once; one more is refused with {@code Bad_TooManySessions}. */
    static final int MAX_SESSIONS = 32;

    /** Longest a session without requests is kept (its subscription and queues with it). */
    static final double MAX_SESSION_TIMEOUT_MS = 120_000;

    /** Subscriptions per session (the operator uses one) and in total. */
    static final int MAX_SUBSCRIPTIONS_PER_SESSION = 4;

    /** Subscriptions of all sessions together: each runs a publishing timer, down to 1 ms. */
    static final int MAX_SUBSCRIPTIONS = 64;

    /** Monitored items per session (the sensor has 18 variables) and in total. */
    static final int MAX_MONITORED_ITEMS_PER_SESSION = 100;

    /** Monitored items of all sessions together. */
    static final int MAX_MONITORED_ITEMS = 1_000;

    /**
     * Nodes per Read, Write, Browse, RegisterNodes, TranslateBrowsePaths, Call and NodeManagement
     * request, and monitored items per call (Milo's default for most of them; Read's was 10,000:
     * 10,000 reads of the record node build a response of some 100 MB before it is refused as too
     * large).
     */
    static final int MAX_NODES_PER_REQUEST = 250;

    /**
     * Nodes per HistoryRead request; more is refused with {@code Bad_TooManyOperations} (by
     * {@link HistoryReadGate}: Milo 1.1.2 checks HistoryRead against the Read limit). The values
     * of all nodes of one request share {@link SensorNamespace#MAX_HISTORY_BYTES_PER_READ}.
     */
    static final int MAX_NODES_PER_HISTORY_READ = 32;

    /**
     * HistoryReads of one session in progress at once; one more is refused with
     * {@code Bad_ResourceUnavailable} (the operator reads its backfill one call after the other).
     */
    static final int MAX_HISTORY_READS_PER_SESSION = 1;

    /** HistoryReads of all sessions in progress at once; one more is refused likewise. */
    static final int MAX_HISTORY_READS = 4;

    /**
     * Largest message either side may send, 2 MiB (Milo's default, set explicitly): a HistoryRead
     * response carries up to {@link SensorNamespace#MAX_HISTORY_BYTES_PER_READ} (1 MiB) of values
     * plus their encoding and must fit; a client's requests to a sensor are a few kilobytes.
     */
    static final int MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

    /** Largest chunk, and how many chunks make one message at most. */
    static final int MAX_CHUNK_BYTES = 65_535;

    /** The chunks of one message (twice what {@link #MAX_MESSAGE_BYTES} needs, for the headers). */
    static final int MAX_CHUNK_COUNT = MAX_MESSAGE_BYTES / MAX_CHUNK_BYTES * 2;

    /** Nesting depth of a decoded structure (Milo's default). */
    static final int MAX_RECURSION_DEPTH = 128;

    private SensorLimits() {}

    /** Milo's limits for a sensor that grants publishing intervals down to {@code minPublishingIntervalMs}. */
    static ServerLimits of(double minPublishingIntervalMs) {
        return new ServerLimits(
                MAX_SESSIONS,
                MAX_SESSION_TIMEOUT_MS,
                minPublishingIntervalMs,
                MAX_SUBSCRIPTIONS_PER_SESSION,
                MAX_SUBSCRIPTIONS,
                MAX_MONITORED_ITEMS_PER_SESSION,
                MAX_MONITORED_ITEMS,
                MAX_NODES_PER_REQUEST,
                MAX_NODES_PER_HISTORY_READ);
    }

    /** The message and chunk sizes of {@link #MAX_MESSAGE_BYTES}. */
    static EncodingLimits encodingLimits() {
        return new EncodingLimits(MAX_CHUNK_BYTES, MAX_CHUNK_COUNT, MAX_MESSAGE_BYTES, MAX_RECURSION_DEPTH);
    }
}
