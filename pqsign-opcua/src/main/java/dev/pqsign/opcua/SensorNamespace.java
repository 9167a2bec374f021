package dev.pqsign.opcua;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.eclipse.milo.opcua.sdk.core.AccessLevel;
import org.eclipse.milo.opcua.sdk.server.ManagedNamespaceWithLifecycle;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.items.BaseMonitoredItem;
import org.eclipse.milo.opcua.sdk.server.items.DataItem;
import org.eclipse.milo.opcua.sdk.server.items.MonitoredItem;
import org.eclipse.milo.opcua.sdk.server.nodes.UaFolderNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaVariableNode;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;

/**
 * The sensor's address space: read-only variables under the {@code sensor} object.
 *
 * <p>Consistency: Milo updates nodes one at a time, so a Read could see a new reading with an old
 * signature. Every update of the snapshot takes the write half of one lock and sets all values
 * (index and sequence last); every Read served by this namespace takes the read half for the whole
 * batch of nodes it reads. A single Read request of the nodes therefore never sees a mix of two
 * readings.
 *
 * <p>Notifications: instead of Milo's polling subscription model (which with sampling interval 0
 * would spin a thread), monitored items are notified directly when the snapshot changes, so
 * sampling interval 0 costs nothing while idle.
 */
final class SensorNamespace extends ManagedNamespaceWithLifecycle {

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, UaVariableNode> nodes = new LinkedHashMap<>();
    private final Map<NodeId, Set<DataItem>> items = new ConcurrentHashMap<>();

    SensorNamespace(OpcUaServer server) {
        super(server, SensorNodes.NAMESPACE_URI);
        getLifecycleManager().addStartupTask(this::createNodes);
    }

    private void createNodes() {
        UaFolderNode sensor = new UaFolderNode(getNodeContext(), newNodeId(SensorNodes.SENSOR_OBJECT),
                newQualifiedName(SensorNodes.SENSOR_OBJECT), LocalizedText.english("pqsign sensor"));
        getNodeManager().addNode(sensor);
        sensor.addReference(new org.eclipse.milo.opcua.sdk.core.Reference(sensor.getNodeId(), NodeIds.Organizes,
                NodeIds.ObjectsFolder.expanded(), false));
        addVariable(sensor, SensorNodes.RAW_DATA, NodeIds.String);
        addVariable(sensor, SensorNodes.SIGNATURE, NodeIds.ByteString);
        addVariable(sensor, SensorNodes.INDEX, NodeIds.UInt32);
        addVariable(sensor, SensorNodes.PARAMETER_SET, NodeIds.String);
        addVariable(sensor, SensorNodes.KEY_ID, NodeIds.ByteString);
        addVariable(sensor, SensorNodes.CERTIFICATE, NodeIds.ByteString);
        addVariable(sensor, SensorNodes.SIGN_TIME_MS, NodeIds.Double);
        addVariable(sensor, SensorNodes.SIGN_START_NANOTIME, NodeIds.Int64);
        addVariable(sensor, SensorNodes.PUBLISH_NANOTIME, NodeIds.Int64);
        addVariable(sensor, SensorNodes.SEQUENCE, NodeIds.Int64);
        addVariable(sensor, SensorNodes.RECORD, NodeIds.ByteString);
        addVariable(sensor, SensorNodes.KEY_HANDOVER, NodeIds.ByteString);
        addVariable(sensor, SensorNodes.KEY_GENERATION, NodeIds.Int64);
        addVariable(sensor, SensorNodes.KEY_REMAINING, NodeIds.Int64);
        addVariable(sensor, SensorNodes.KEY_SECONDS_LEFT, NodeIds.Double);
        addVariable(sensor, SensorNodes.KEY_NEXT_READY, NodeIds.Boolean);
        addVariable(sensor, SensorNodes.KEY_ALARM, NodeIds.String);
    }

    private void addVariable(UaFolderNode parent, String name, NodeId dataType) {
        UaVariableNode node = new UaVariableNode.UaVariableNodeBuilder(getNodeContext())
                .setNodeId(newNodeId(name))
                .setAccessLevel(AccessLevel.READ_ONLY)
                .setUserAccessLevel(AccessLevel.READ_ONLY)
                .setBrowseName(newQualifiedName(name))
                .setDisplayName(LocalizedText.english(name))
                .setDataType(dataType)
                .setTypeDefinition(NodeIds.BaseDataVariableType)
                .setMinimumSamplingInterval(0.0)
                .build();
        node.setValue(new DataValue(Variant.NULL_VALUE, new StatusCode(org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_WaitingForInitialData)));
        getNodeManager().addNode(node);
        parent.addOrganizes(node);
        nodes.put(name, node);
    }

    /** The node id of one of the {@link SensorNodes} names in this server. */
    NodeId nodeId(String name) {
        return newNodeId(name);
    }

    /**
     * Replaces the values of the given nodes as one consistent update, in the map's order, then
     * notifies monitored items.
     */
    void update(LinkedHashMap<String, Variant> values) {
        DateTime now = DateTime.now();
        Map<NodeId, DataValue> changed = new HashMap<>();
        lock.writeLock().lock();
        try {
            for (Map.Entry<String, Variant> e : values.entrySet()) {
                UaVariableNode node = nodes.get(e.getKey());
                if (node == null) {
                    throw new IllegalArgumentException("no sensor node " + e.getKey());
                }
                DataValue dv = new DataValue(e.getValue(), StatusCode.GOOD, now, now);
                node.setValue(dv);
                changed.put(node.getNodeId(), dv);
            }
        } finally {
            lock.writeLock().unlock();
        }
        for (Map.Entry<NodeId, DataValue> e : changed.entrySet()) {
            Set<DataItem> watchers = items.get(e.getKey());
            if (watchers != null) {
                for (DataItem item : watchers) {
                    if (AttributeId.Value.isEqual(item.getReadValueId().getAttributeId())) {
                        item.setValue(e.getValue());
                    }
                }
            }
        }
    }

    @Override
    public List<DataValue> read(org.eclipse.milo.opcua.sdk.server.AddressSpace.ReadContext context, Double maxAge,
            TimestampsToReturn timestamps, List<ReadValueId> readValueIds) {
        lock.readLock().lock();
        try {
            return super.read(context, maxAge, timestamps, readValueIds);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public void onDataItemsCreated(List<DataItem> dataItems) {
        for (DataItem item : dataItems) {
            NodeId id = item.getReadValueId().getNodeId();
            items.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet()).add(item);
            // Deliver the current value as the item's first notification, as a sampling model would.
            List<DataValue> current = read(new org.eclipse.milo.opcua.sdk.server.AddressSpace.ReadContext(getServer(), item.getSession()),
                    0.0, TimestampsToReturn.Both, List.of(item.getReadValueId()));
            item.setValue(current.get(0));
        }
    }

    @Override
    public void onDataItemsModified(List<DataItem> dataItems) {
        // Sampling interval and queue changes need nothing: values are pushed on change.
    }

    @Override
    public void onDataItemsDeleted(List<DataItem> dataItems) {
        for (DataItem item : dataItems) {
            Set<DataItem> s = items.get(item.getReadValueId().getNodeId());
            if (s != null) {
                s.remove(item);
            }
        }
    }

    @Override
    public void onMonitoringModeChanged(List<MonitoredItem> monitoredItems) {
        // The monitored items themselves drop values while disabled.
    }

    /**
     * Number of monitored items that still hold notifications not yet sent in a Publish response
     * (a stopping sensor waits for these so that its last readings reach the operators).
     */
    int itemsWithPendingNotifications() {
        int n = 0;
        for (Set<DataItem> s : new ArrayList<>(items.values())) {
            for (DataItem item : s) {
                if (item instanceof BaseMonitoredItem<?> b && b.hasNotifications()) {
                    n++;
                }
            }
        }
        return n;
    }

    /** Number of monitored items currently registered (for tests and diagnostics). */
    int monitoredItemCount() {
        int n = 0;
        for (Set<DataItem> s : new ArrayList<>(items.values())) {
            n += s.size();
        }
        return n;
    }
}
