package dev.pqsign.opcua.internal;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfigLimits;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;

/**
 * Milo's server limits from the few numbers a pqsign server sets deliberately (the sensor's
 * {@code SensorLimits}, the gateway's {@code GatewayLimits}, which say why each value is what it
 * is): every per-request node limit Milo knows is {@code nodesPerRequest}, except HistoryRead's.
 *
 * @param sessions sessions at once
 * @param sessionTimeoutMs longest a session without requests is kept
 * @param minPublishingIntervalMs smallest publishing interval granted
 * @param subscriptionsPerSession subscriptions of one session
 * @param subscriptions subscriptions of all sessions together
 * @param monitoredItemsPerSession monitored items of one session
 * @param monitoredItems monitored items of all sessions together
 * @param nodesPerRequest nodes per Read, Write, Browse, RegisterNodes, TranslateBrowsePaths, Call,
 *     NodeManagement and HistoryUpdate request, and monitored items per call
 * @param nodesPerHistoryRead nodes per HistoryRead request (data and events)
 */
public record ServerLimits(
        int sessions,
        double sessionTimeoutMs,
        double minPublishingIntervalMs,
        int subscriptionsPerSession,
        int subscriptions,
        int monitoredItemsPerSession,
        int monitoredItems,
        int nodesPerRequest,
        int nodesPerHistoryRead)
        implements OpcUaServerConfigLimits {

    @Override
    public UInteger getMaxSessions() {
        return uint(sessions);
    }

    @Override
    public Double getMaxSessionTimeout() {
        return sessionTimeoutMs;
    }

    @Override
    public Double getMinPublishingInterval() {
        return minPublishingIntervalMs;
    }

    @Override
    public UInteger getMaxSubscriptions() {
        return uint(subscriptions);
    }

    @Override
    public UInteger getMaxSubscriptionsPerSession() {
        return uint(subscriptionsPerSession);
    }

    @Override
    public UInteger getMaxMonitoredItems() {
        return uint(monitoredItems);
    }

    @Override
    public UInteger getMaxMonitoredItemsPerSession() {
        return uint(monitoredItemsPerSession);
    }

    @Override
    public UInteger getMaxNodesPerRead() {
        return uint(nodesPerRequest);
    }

    @Override
    public UInteger getMaxNodesPerWrite() {
        return uint(nodesPerRequest);
    }

    @Override
    public UInteger getMaxMonitoredItemsPerCall() {
        return uint(nodesPerRequest);
    }

    @Override
    public UInteger getMaxNodesPerRegisterNodes() {
        return uint(nodesPerRequest);
    }

    @Override
    public UInteger getMaxNodesPerHistoryReadData() {
        return uint(nodesPerHistoryRead);
    }

    @Override
    public UInteger getMaxNodesPerHistoryReadEvents() {
        return uint(nodesPerHistoryRead);
    }

    @Override
    public UInteger getMaxNodesPerHistoryUpdateData() {
        return uint(nodesPerRequest);
    }

    @Override
    public UInteger getMaxNodesPerHistoryUpdateEvents() {
        return uint(nodesPerRequest);
    }

    @Override
    public UInteger getMaxNodesPerMethodCall() {
        return uint(nodesPerRequest);
    }

    @Override
    public UInteger getMaxNodesPerBrowse() {
        return uint(nodesPerRequest);
    }

    @Override
    public UInteger getMaxNodesPerTranslateBrowsePathsToNodeIds() {
        return uint(nodesPerRequest);
    }

    @Override
    public UInteger getMaxNodesPerNodeManagement() {
        return uint(nodesPerRequest);
    }
}
