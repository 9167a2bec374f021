package dev.pqsign.opcua;

import dev.pqsign.telemetry.ReadingHistory;
import dev.pqsign.telemetry.SignedRecord;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.eclipse.milo.opcua.sdk.core.AccessLevel;
import org.eclipse.milo.opcua.sdk.server.AddressSpace;
import org.eclipse.milo.opcua.sdk.server.ManagedNamespaceWithLifecycle;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.items.BaseMonitoredItem;
import org.eclipse.milo.opcua.sdk.server.items.DataItem;
import org.eclipse.milo.opcua.sdk.server.items.MonitoredItem;
import org.eclipse.milo.opcua.sdk.server.nodes.UaFolderNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaVariableNode;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryData;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadRawModifiedDetails;
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

    private static final System.Logger LOG = System.getLogger(SensorNamespace.class.getName());
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, UaVariableNode> nodes = new LinkedHashMap<>();
    private final Map<NodeId, Set<DataItem>> items = new ConcurrentHashMap<>();

    /** Most values one HistoryRead returns per node before it hands out a continuation point. */
    static final int MAX_HISTORY_VALUES_PER_READ = 1000;

    /**
     * Most bytes of values one HistoryRead response returns, for all its nodes together: a thousand
     * records of XMSS^MT signatures (4.6 to 14 KB each) would exceed the 2 MiB response that OPC UA
     * stacks accept by default, and the read would fail as a whole; and a request of many nodes
     * must not build a response many times that size (the server builds the whole response in
     * memory before it can tell that it is too large). Half of 2 MiB leaves room for the
     * encoding's overhead. The first value of a response is returned even if it alone is larger.
     */
    static final int MAX_HISTORY_BYTES_PER_READ = 1 << 20;

    /** The nodes whose history is served (from the records of {@link #history}). */
    private static final Set<String> HISTORIZED = Set.of(
            SensorNodes.RECORD,
            SensorNodes.RAW_DATA,
            SensorNodes.SIGNATURE,
            SensorNodes.INDEX,
            SensorNodes.KEY_HANDOVER,
            SensorNodes.KEY_CERTIFICATES);

    /** The certificate chain (encoded) of a key generation, empty if it has none. */
    @FunctionalInterface
    interface KeyCertificates {
        Optional<byte[]> of(long generation);

        KeyCertificates NONE = generation -> Optional.empty();
    }

    /** Where the key certificates' history comes from ({@link SensorServer#rollWith}). */
    private volatile KeyCertificates keyCertificates = KeyCertificates.NONE;

    private final ReadingHistory history;

    SensorNamespace(OpcUaServer server, ReadingHistory history) {
        super(server, SensorNodes.NAMESPACE_URI);
        this.history = history;
        getLifecycleManager().addStartupTask(this::createNodes);
    }

    /** Serves the history of {@link SensorNodes#KEY_CERTIFICATES} from {@code source}. */
    void keyCertificates(KeyCertificates source) {
        keyCertificates = Objects.requireNonNull(source, "source");
    }

    private void createNodes() {
        UaFolderNode sensor = new UaFolderNode(
                getNodeContext(),
                newNodeId(SensorNodes.SENSOR_OBJECT),
                newQualifiedName(SensorNodes.SENSOR_OBJECT),
                LocalizedText.english("pqsign sensor"));
        getNodeManager().addNode(sensor);
        sensor.addReference(new org.eclipse.milo.opcua.sdk.core.Reference(
                sensor.getNodeId(), NodeIds.Organizes, NodeIds.ObjectsFolder.expanded(), false));
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
        addVariable(sensor, SensorNodes.KEY_CERTIFICATES, NodeIds.ByteString);
        addVariable(sensor, SensorNodes.KEY_GENERATION, NodeIds.Int64);
        addVariable(sensor, SensorNodes.KEY_REMAINING, NodeIds.Int64);
        addVariable(sensor, SensorNodes.KEY_SECONDS_LEFT, NodeIds.Double);
        addVariable(sensor, SensorNodes.KEY_NEXT_READY, NodeIds.Boolean);
        addVariable(sensor, SensorNodes.KEY_ALARM, NodeIds.String);
    }

    private void addVariable(UaFolderNode parent, String name, NodeId dataType) {
        boolean historized = history != null && HISTORIZED.contains(name);
        Set<AccessLevel> access =
                historized ? EnumSet.of(AccessLevel.CurrentRead, AccessLevel.HistoryRead) : AccessLevel.READ_ONLY;
        UaVariableNode node = new UaVariableNode.UaVariableNodeBuilder(getNodeContext())
                .setNodeId(newNodeId(name))
                .setAccessLevel(access)
                .setUserAccessLevel(access)
                .setHistorizing(historized)
                .setBrowseName(newQualifiedName(name))
                .setDisplayName(LocalizedText.english(name))
                .setDataType(dataType)
                .setTypeDefinition(NodeIds.BaseDataVariableType)
                .setMinimumSamplingInterval(0.0)
                .build();
        node.setValue(new DataValue(
                Variant.NULL_VALUE,
                new StatusCode(org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_WaitingForInitialData)));
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
    // The parameter type is the contract: values are applied in insertion order, and Java 17 has no
    // SequencedMap interface that would say so.
    @SuppressWarnings("NonApiType")
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
    public List<DataValue> read(
            org.eclipse.milo.opcua.sdk.server.AddressSpace.ReadContext context,
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

    /**
     * Serves raw history (ReadRawModifiedDetails, not modified values) of the record node and of
     * the three study nodes from the sensor's {@link ReadingHistory}, oldest first, by source
     * time; the record node's history carries the key handover records too, where they were
     * published, and the key handover node's history is those handover records alone. More than
     * {@link #MAX_HISTORY_VALUES_PER_READ} values (or the client's numValuesPerNode) of a node, or
     * more than {@link #MAX_HISTORY_BYTES_PER_READ} of all nodes of the request together, come with
     * a continuation point: 8 bytes, the source time in nanoseconds after which the next call
     * continues (the history's source times strictly increase). A node reached after the request's
     * bytes are spent gets no values and a continuation point at its start (OPC UA Part 4 allows
     * zero values with a continuation point).
     */
    @Override
    public List<HistoryReadResult> historyRead(
            AddressSpace.HistoryReadContext context,
            HistoryReadDetails details,
            TimestampsToReturn timestamps,
            List<HistoryReadValueId> ids) {
        List<HistoryReadResult> results = new ArrayList<>(ids.size());
        Budget budget = new Budget();
        for (HistoryReadValueId id : ids) {
            results.add(historyReadOne(details, id, budget));
        }
        return results;
    }

    /** The bytes of values one HistoryRead response has left, shared by its nodes. */
    private static final class Budget {
        private long left = MAX_HISTORY_BYTES_PER_READ;
        private boolean empty = true;

        /** Whether a value of {@code size} bytes still goes into the response (then it is counted). */
        boolean take(long size) {
            if (!empty && size > left) {
                return false;
            }
            left -= size;
            empty = false;
            return true;
        }

        /** The bytes to fetch at most, beyond the first value: what is left, never negative. */
        long fetchLimit() {
            return Math.max(0, left);
        }
    }

    private HistoryReadResult historyReadOne(HistoryReadDetails details, HistoryReadValueId id, Budget budget) {
        String name = id.getNodeId().getIdentifier() instanceof String n ? n : "";
        if (history == null || !HISTORIZED.contains(name) || !newNodeId(name).equals(id.getNodeId())) {
            return new HistoryReadResult(new StatusCode(StatusCodes.Bad_HistoryOperationUnsupported), null, null);
        }
        if (!(details instanceof ReadRawModifiedDetails raw) || Boolean.TRUE.equals(raw.getIsReadModified())) {
            return new HistoryReadResult(new StatusCode(StatusCodes.Bad_HistoryOperationUnsupported), null, null);
        }
        Instant from = raw.getStartTime() == null || raw.getStartTime().isNull()
                ? Instant.EPOCH
                : raw.getStartTime().getJavaInstant();
        Instant to = raw.getEndTime() == null || raw.getEndTime().isNull()
                ? Instant.MAX
                : raw.getEndTime().getJavaInstant();
        ByteString cp = id.getContinuationPoint();
        if (cp != null && cp.isNotNull()) {
            byte[] b = cp.bytesOrEmpty();
            if (b.length != 8) {
                return new HistoryReadResult(new StatusCode(StatusCodes.Bad_ContinuationPointInvalid), null, null);
            }
            long after = ByteBuffer.wrap(b).getLong();
            from = Instant.ofEpochSecond(Math.floorDiv(after, 1_000_000_000L), Math.floorMod(after, 1_000_000_000L))
                    .plusNanos(1);
        }
        if (from.isAfter(to)) {
            return new HistoryReadResult(new StatusCode(StatusCodes.Bad_HistoryOperationUnsupported), null, null);
        }
        long wanted = raw.getNumValuesPerNode() == null
                ? 0
                : raw.getNumValuesPerNode().longValue();
        int max = (int) (wanted == 0 ? MAX_HISTORY_VALUES_PER_READ : Math.min(wanted, MAX_HISTORY_VALUES_PER_READ));
        List<HistoryValue> entries;
        try {
            entries = fetch(name, from, to, max + 1, budget.fetchLimit());
        } catch (UncheckedIOException e) {
            // the history file cannot be read now (the sensor keeps signing; a later call may succeed)
            LOG.log(System.Logger.Level.WARNING, "history read: {0}", e.getMessage());
            return new HistoryReadResult(new StatusCode(StatusCodes.Bad_ResourceUnavailable), null, null);
        }
        int keep = 0;
        while (keep < Math.min(entries.size(), max)
                && budget.take(entries.get(keep).size())) {
            keep++; // the rest with the next HistoryRead, from the continuation point
        }
        boolean more = entries.size() > keep;
        if (more) {
            entries = entries.subList(0, keep);
        }
        DataValue[] values = new DataValue[entries.size()];
        for (int i = 0; i < values.length; i++) {
            HistoryValue e = entries.get(i);
            DateTime t = new DateTime(e.sourceTime());
            values[i] = new DataValue(e.value(), StatusCode.GOOD, t, t);
        }
        ByteString next = null;
        if (more) {
            long after = entries.isEmpty()
                    ? before(epochNanos(from)) // nothing fitted: this node continues where it started
                    : epochNanos(entries.get(entries.size() - 1).sourceTime());
            next = ByteString.of(ByteBuffer.allocate(8).putLong(after).array());
        }
        ExtensionObject data = ExtensionObject.encode(getServer().getStaticEncodingContext(), new HistoryData(values));
        return new HistoryReadResult(StatusCode.GOOD, next, data);
    }

    /** The nanosecond before {@code nanos}, which a continuation point continues after. */
    private static long before(long nanos) {
        return nanos == Long.MIN_VALUE ? nanos : nanos - 1;
    }

    /**
     * Up to {@code count} values of a node's history from {@code from} to {@code to}, fetched (and
     * decoded) only up to the first that brings their size above {@code maxBytes}: a thousand
     * fetched to send two hundred made every HistoryRead of a backfill five times the work.
     */
    private List<HistoryValue> fetch(String name, Instant from, Instant to, int count, long maxBytes) {
        // The record node's history holds the key handovers too, in publication order, so an
        // operator that missed several rollovers follows each before it meets the next key's readings.
        // The handover node's history is the handovers alone: the chain, without the readings.
        // The key certificates' history has, at each handover's time, the certificate chain of
        // the key it introduced (empty without one), so an operator in certificate mode that
        // missed several rollovers finds every key's chain, not only the latest.
        return switch (name) {
            case SensorNodes.RECORD ->
                history.entries(from, to, count, maxBytes).stream()
                        .map(e -> new HistoryValue(e.sourceTime(), e.value()))
                        .toList();
            case SensorNodes.KEY_HANDOVER ->
                history.handovers(from, to, count, maxBytes).stream()
                        .map(e -> new HistoryValue(e.sourceTime(), e.value()))
                        .toList();
            case SensorNodes.KEY_CERTIFICATES -> {
                KeyCertificates source = keyCertificates;
                yield history.handovers(from, to, count, maxBytes).stream()
                        .map(e -> new HistoryValue(
                                e.sourceTime(),
                                source.of(e.handover().orElseThrow().statement().sequence())
                                        .orElse(new byte[0])))
                        .toList();
            }
            default ->
                history.range(from, to, count, maxBytes).stream()
                        .map(r -> new HistoryValue(r.sourceTime(), historyValue(name, r), r.encode().length))
                        .toList();
        };
    }

    /** Nanoseconds since the epoch, saturated at the ends of i64 (a corrupt history must not wrap around). */
    private static long epochNanos(Instant t) {
        long seconds = t.getEpochSecond();
        if (seconds >= Long.MAX_VALUE / 1_000_000_000L) {
            return Long.MAX_VALUE;
        }
        if (seconds <= Long.MIN_VALUE / 1_000_000_000L) {
            return Long.MIN_VALUE;
        }
        return seconds * 1_000_000_000L + t.getNano();
    }

    /** A value of a node's history and the size of what it was made from (for the byte cap). */
    private record HistoryValue(Instant sourceTime, Variant value, long size) {
        HistoryValue(Instant sourceTime, byte[] record) {
            this(sourceTime, new Variant(ByteString.of(record)), record.length);
        }
    }

    private static Variant historyValue(String node, SignedRecord r) {
        return switch (node) {
            case SensorNodes.RAW_DATA -> new Variant(r.reading().reading());
            case SensorNodes.SIGNATURE -> new Variant(ByteString.of(r.reading().signature()));
            case SensorNodes.INDEX -> new Variant(Unsigned.uint(r.index()));
            default -> new Variant(ByteString.of(r.encode()));
        };
    }

    @Override
    public void onDataItemsCreated(List<DataItem> dataItems) {
        for (DataItem item : dataItems) {
            NodeId id = item.getReadValueId().getNodeId();
            items.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet()).add(item);
            // Deliver the current value as the item's first notification, as a sampling model would.
            List<DataValue> current = read(
                    new org.eclipse.milo.opcua.sdk.server.AddressSpace.ReadContext(getServer(), item.getSession()),
                    0.0,
                    TimestampsToReturn.Both,
                    List.of(item.getReadValueId()));
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
