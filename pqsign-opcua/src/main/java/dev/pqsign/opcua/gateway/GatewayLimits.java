package dev.pqsign.opcua.gateway;

import dev.pqsign.opcua.internal.ServerLimits;
import org.eclipse.milo.opcua.stack.core.channel.EncodingLimits;

/**
 * What one client, and all clients together, may ask of the gateway (docs/gateway.md, "Limits"),
 * set deliberately rather than left at Milo's defaults and advertised in the server's
 * ServerCapabilities / OperationLimits. A gateway serves SCADA, HMIs and historians: more
 * monitored items than a sensor, but the same rule: one client asking too much must never stop it
 * serving the others, nor slow the operator's verdicts.
 */
final class GatewayLimits {

    /** Smallest publishing interval granted, in ms (Milo's default minimum is 10 ms). */
    static final double MIN_PUBLISHING_INTERVAL_MS = 1.0;

    /** Sessions at once; one more is refused with {@code Bad_TooManySessions}. */
    static final int MAX_SESSIONS = 32;

    /** Longest a session without requests is kept. */
    static final double MAX_SESSION_TIMEOUT_MS = 120_000;

    /** Subscriptions per session. */
    static final int MAX_SUBSCRIPTIONS_PER_SESSION = 8;

    /** Subscriptions of all sessions together. */
    static final int MAX_SUBSCRIPTIONS = 128;

    /** Monitored items per session: every variable of a few hundred sensors. */
    static final int MAX_MONITORED_ITEMS_PER_SESSION = 20_000;

    /** Monitored items of all sessions together. */
    static final int MAX_MONITORED_ITEMS = 100_000;

    /** Nodes per Read, Write, Browse, RegisterNodes, TranslateBrowsePaths, Call, NodeManagement request. */
    static final int MAX_NODES_PER_REQUEST = 1_000;

    /** Nodes per HistoryRead request (checked by {@link RequestGate}). */
    static final int MAX_NODES_PER_HISTORY_READ = 32;

    /** HistoryReads of one session in progress at once. */
    static final int MAX_HISTORY_READS_PER_SESSION = 1;

    /** HistoryReads of all sessions in progress at once. */
    static final int MAX_HISTORY_READS = 4;

    /** Values per node and HistoryRead (or the client's numValuesPerNode if smaller). */
    static final int MAX_HISTORY_VALUES_PER_NODE = 1_000;

    /** Bytes of history entries one HistoryRead looks at, all nodes together (the first always). */
    static final long MAX_HISTORY_BYTES_PER_READ = 1 << 20;

    /** Entries one HistoryRead looks at per node (a node with few matching values, e.g. a rare field). */
    static final int MAX_HISTORY_SCAN_PER_NODE = 10_000;

    /**
     * Largest message either side may send, 2 MiB (what OPC UA clients accept by default): a
     * HistoryRead response of 1 MiB of entries and their encoding fits.
     */
    static final int MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

    static final int MAX_CHUNK_BYTES = 65_535;

    static final int MAX_CHUNK_COUNT = MAX_MESSAGE_BYTES / MAX_CHUNK_BYTES * 2;

    static final int MAX_RECURSION_DEPTH = 128;

    static EncodingLimits encodingLimits() {
        return new EncodingLimits(MAX_CHUNK_BYTES, MAX_CHUNK_COUNT, MAX_MESSAGE_BYTES, MAX_RECURSION_DEPTH);
    }

    private GatewayLimits() {}

    /** Milo's limits for the gateway. */
    static ServerLimits limits() {
        return new ServerLimits(
                MAX_SESSIONS,
                MAX_SESSION_TIMEOUT_MS,
                MIN_PUBLISHING_INTERVAL_MS,
                MAX_SUBSCRIPTIONS_PER_SESSION,
                MAX_SUBSCRIPTIONS,
                MAX_MONITORED_ITEMS_PER_SESSION,
                MAX_MONITORED_ITEMS,
                MAX_NODES_PER_REQUEST,
                MAX_NODES_PER_HISTORY_READ);
    }
}
