package dev.pqsign.opcua.gateway;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.eclipse.milo.opcua.sdk.core.AccessLevel;
import org.eclipse.milo.opcua.sdk.core.Reference;
import org.eclipse.milo.opcua.sdk.server.AddressSpace;
import org.eclipse.milo.opcua.sdk.server.EventListener;
import org.eclipse.milo.opcua.sdk.server.ManagedNamespaceWithLifecycle;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.items.BaseMonitoredItem;
import org.eclipse.milo.opcua.sdk.server.items.DataItem;
import org.eclipse.milo.opcua.sdk.server.items.EventItem;
import org.eclipse.milo.opcua.sdk.server.items.MonitoredItem;
import org.eclipse.milo.opcua.sdk.server.model.objects.BaseEventTypeNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaFolderNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaVariableNode;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;

/**
 * The gateway's address space: the folder {@code Sensors}, one folder per sensor, and its
 * read-only variables ({@link GatewayNodes}). Values are pushed to monitored items when they change
 * (no sampling thread, as in the sensor's namespace); one sensor's changes are applied under the
 * write half of a lock that every Read holds the read half of for its whole batch, so a Read of
 * {@code reading} and {@code value} never mixes two readings. Events are raised with the sensor's
 * folder as their source and reach items monitoring that folder, the {@code Sensors} folder, or the
 * Server object.
 */
final class GatewayNamespace extends ManagedNamespaceWithLifecycle {

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final List<String> sensors;
    private final Map<NodeId, UaVariableNode> variables = new ConcurrentHashMap<>();
    private final Map<NodeId, String> folders = new ConcurrentHashMap<>();
    private final Map<NodeId, Set<DataItem>> items = new ConcurrentHashMap<>();
    private final Map<EventItem, EventListener> eventListeners = new ConcurrentHashMap<>();
    private final Map<String, UaFolderNode> folderNodes = new HashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final GatewayHistoryReader historyReader;
    private UaFolderNode root;

    GatewayNamespace(OpcUaServer server, List<String> sensors, GatewayHistory history) {
        super(server, GatewayNodes.NAMESPACE_URI);
        this.sensors = List.copyOf(sensors);
        this.historyReader = new GatewayHistoryReader(this, history);
        getLifecycleManager().addStartupTask(this::createNodes);
    }

    private void createNodes() {
        root = new UaFolderNode(
                getNodeContext(),
                newNodeId(GatewayNodes.SENSORS_FOLDER),
                newQualifiedName("Sensors"),
                LocalizedText.english("pqsign verified sensors"));
        root.setEventNotifier(Unsigned.ubyte(1));
        getNodeManager().addNode(root);
        root.addReference(new Reference(root.getNodeId(), NodeIds.Organizes, NodeIds.ObjectsFolder.expanded(), false));
        folders.put(root.getNodeId(), "");
        for (String sensor : sensors) {
            UaFolderNode folder = new UaFolderNode(
                    getNodeContext(), newNodeId(sensor), newQualifiedName(sensor), LocalizedText.english(sensor));
            folder.setEventNotifier(Unsigned.ubyte(1)); // SubscribeToEvents
            getNodeManager().addNode(folder);
            root.addOrganizes(folder);
            root.addReference(new Reference(
                    root.getNodeId(), NodeIds.HasNotifier, folder.getNodeId().expanded(), true));
            folders.put(folder.getNodeId(), sensor);
            folderNodes.put(sensor, folder);
            for (String leaf : GatewayNodes.FIXED_LEAVES) {
                addVariable(sensor, leaf);
            }
        }
    }

    /** The node id of a sensor's leaf in this server. */
    NodeId variableId(String sensor, String leaf) {
        return newNodeId(GatewayNodes.nodeId(sensor, leaf));
    }

    /** The sensor and leaf of a variable node id of this namespace, or null. */
    String[] sensorAndLeaf(NodeId id) {
        if (!variables.containsKey(id) || !(id.getIdentifier() instanceof String s)) {
            return null;
        }
        int slash = s.lastIndexOf('/');
        return new String[] {s.substring(0, slash), s.substring(slash + 1)};
    }

    private UaVariableNode addVariable(String sensor, String leaf) {
        boolean historized = GatewayHistoryReader.isHistorized(leaf) && historyReader.enabled();
        Set<AccessLevel> access =
                historized ? EnumSet.of(AccessLevel.CurrentRead, AccessLevel.HistoryRead) : AccessLevel.READ_ONLY;
        UaVariableNode node = new UaVariableNode.UaVariableNodeBuilder(getNodeContext())
                .setNodeId(variableId(sensor, leaf))
                .setAccessLevel(access)
                .setUserAccessLevel(access)
                .setHistorizing(historized)
                .setBrowseName(newQualifiedName(leaf))
                .setDisplayName(LocalizedText.english(leaf))
                .setDataType(dataType(leaf))
                .setTypeDefinition(NodeIds.BaseDataVariableType)
                .setMinimumSamplingInterval(0.0)
                .build();
        node.setValue(new DataValue(
                org.eclipse.milo.opcua.stack.core.types.builtin.Variant.NULL_VALUE,
                new org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode(
                        org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_WaitingForInitialData)));
        getNodeManager().addNode(node);
        folderNodes.get(sensor).addOrganizes(node);
        variables.put(node.getNodeId(), node);
        return node;
    }

    static NodeId dataType(String leaf) {
        if (leaf.equals(GatewayNodes.VALUE)
                || leaf.startsWith(GatewayNodes.VALUE_PREFIX)
                || leaf.equals(GatewayNodes.KEY_SECONDS_LEFT)) {
            return NodeIds.Double;
        }
        if (leaf.startsWith("count.")
                || leaf.equals(GatewayNodes.READING_INDEX)
                || leaf.equals(GatewayNodes.VERDICT_INDEX)
                || leaf.equals(GatewayNodes.KEY_GENERATION)
                || leaf.equals(GatewayNodes.KEY_REMAINING)) {
            return NodeIds.Int64;
        }
        if (leaf.equals(GatewayNodes.KEY_NEXT_READY)) {
            return NodeIds.Boolean;
        }
        if (leaf.equals(GatewayNodes.CONNECTION_SINCE)) {
            return NodeIds.DateTime;
        }
        return NodeIds.String;
    }

    /**
     * Sets a sensor's changed values as one update (creating {@code value.NAME} variables on first
     * use), then notifies monitored items.
     */
    void apply(String sensor, Map<String, DataValue> values) {
        if (values.isEmpty()) {
            return;
        }
        Map<NodeId, DataValue> changed = new LinkedHashMap<>();
        lock.writeLock().lock();
        try {
            for (Map.Entry<String, DataValue> e : values.entrySet()) {
                NodeId id = variableId(sensor, e.getKey());
                UaVariableNode node = variables.get(id);
                if (node == null) {
                    node = addVariable(sensor, e.getKey());
                }
                node.setValue(e.getValue());
                changed.put(id, e.getValue());
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

    /** Raises an event with the sensor's folder as its source. */
    void raise(String sensor, SensorState.Alarm alarm) {
        UaFolderNode folder = folderNodes.get(sensor);
        if (folder == null) {
            return;
        }
        BaseEventTypeNode event;
        try {
            event = getServer().getEventFactory().createEvent(newNodeId(UUID.randomUUID()), NodeIds.BaseEventType);
        } catch (UaException e) {
            System.getLogger(GatewayNamespace.class.getName())
                    .log(System.Logger.Level.WARNING, "cannot create the event: {0}", e.getMessage());
            return;
        }
        try {
            byte[] id = new byte[16];
            random.nextBytes(id);
            event.setBrowseName(new QualifiedName(getNamespaceIndex().intValue(), "VerdictEvent"));
            event.setDisplayName(LocalizedText.english(alarm.reason().name()));
            event.setEventId(ByteString.of(id));
            event.setEventType(NodeIds.BaseEventType);
            event.setSourceNode(folder.getNodeId());
            event.setSourceName(sensor);
            event.setTime(new DateTime(alarm.time()));
            event.setReceiveTime(DateTime.now());
            event.setMessage(LocalizedText.english(alarm.message()));
            event.setSeverity(Unsigned.ushort(alarm.severity()));
            getServer().getEventNotifier().fire(event);
        } finally {
            event.delete();
        }
    }

    @Override
    public List<DataValue> read(
            AddressSpace.ReadContext context,
            Double maxAge,
            TimestampsToReturn timestamps,
            List<ReadValueId> readValueIds) {
        lock.readLock().lock();
        try {
            return super.read(context, maxAge, timestamps, readValueIds);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<HistoryReadResult> historyRead(
            AddressSpace.HistoryReadContext context,
            HistoryReadDetails details,
            TimestampsToReturn timestamps,
            List<HistoryReadValueId> ids) {
        return historyReader.read(details, ids);
    }

    @Override
    public void onDataItemsCreated(List<DataItem> dataItems) {
        for (DataItem item : dataItems) {
            NodeId id = item.getReadValueId().getNodeId();
            items.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet()).add(item);
            // The current value is the item's first notification, as a sampling model would send.
            List<DataValue> current = read(
                    new AddressSpace.ReadContext(getServer(), item.getSession()),
                    0.0,
                    TimestampsToReturn.Both,
                    List.of(item.getReadValueId()));
            item.setValue(current.get(0));
        }
    }

    @Override
    public void onDataItemsModified(List<DataItem> dataItems) {
        // Values are pushed on change: sampling intervals and queue sizes need nothing here.
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
    public void onEventItemsCreated(List<EventItem> eventItems) {
        for (EventItem item : eventItems) {
            String scope = folders.get(item.getReadValueId().getNodeId());
            if (scope == null) {
                continue; // not an event notifier of this namespace
            }
            NodeId source = scope.isEmpty() ? null : newNodeId(scope);
            EventListener l = event -> {
                if (item.isSamplingEnabled()
                        && (source == null
                                ? folders.containsKey(event.getSourceNode())
                                : source.equals(event.getSourceNode()))) {
                    item.onEvent(event);
                }
            };
            eventListeners.put(item, l);
            getServer().getEventNotifier().register(l);
        }
    }

    @Override
    public void onEventItemsModified(List<EventItem> eventItems) {
        // The filter lives in the item itself.
    }

    @Override
    public void onEventItemsDeleted(List<EventItem> eventItems) {
        for (EventItem item : eventItems) {
            EventListener l = eventListeners.remove(item);
            if (l != null) {
                getServer().getEventNotifier().unregister(l);
            }
        }
    }

    @Override
    public void onMonitoringModeChanged(List<MonitoredItem> monitoredItems) {
        // Items drop values while disabled; event listeners check the mode on each event.
    }

    /** Monitored items that still hold notifications not yet sent (a closing gateway waits for them). */
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

    OpcUaServer server() {
        return getServer();
    }
}
