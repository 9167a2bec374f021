package dev.pqsign.opcua.gateway;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.EventFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryData;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadRawModifiedDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.SimpleAttributeOperand;

/**
 * A plain Milo client of a gateway, as a SCADA would use it: subscriptions to variables and events,
 * HistoryRead. Public (and in pqsign-opcua's test jar) for the CLI's process tests of the plant path.
 */
public final class GatewayClient implements AutoCloseable {

    /** One event as the client received it: the fields selected by {@link #subscribeEvents}. */
    public record Event(String sourceName, int severity, String message) {}

    public final OpcUaClient client;
    public final int ns;
    private final OpcUaSubscription subscription;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

    public GatewayClient(String endpointUrl) throws Exception {
        client = OpcUaClient.create(endpointUrl);
        client.connect();
        ns = client.readNamespaceTable().getIndex(GatewayNodes.NAMESPACE_URI).intValue();
        subscription = new OpcUaSubscription(client, 1.0);
        subscription.create();
    }

    public NodeId id(String sensor, String leaf) {
        return new NodeId(ns, GatewayNodes.nodeId(sensor, leaf));
    }

    /** Subscribes to a variable (sampling 0, a queue, nothing dropped); its values land in the returned queue. */
    public BlockingQueue<DataValue> subscribe(NodeId node) throws Exception {
        BlockingQueue<DataValue> q = new LinkedBlockingQueue<>();
        OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(node);
        item.setSamplingInterval(0.0);
        item.setQueueSize(Unsigned.uint(1000));
        item.setDiscardOldest(false);
        item.setDataValueListener((i, v) -> q.add(v));
        subscription.addMonitoredItem(item);
        subscription.synchronizeMonitoredItems();
        return q;
    }

    /** Subscribes to the events of {@code notifier} (SourceName, Severity, Message). */
    public BlockingQueue<Event> subscribeEvents(NodeId notifier) throws Exception {
        SimpleAttributeOperand[] select = {
            field("SourceName"), field("Severity"), field("Message"),
        };
        OpcUaMonitoredItem item =
                OpcUaMonitoredItem.newEventItem(notifier, new EventFilter(select, new ContentFilter(null)));
        item.setQueueSize(Unsigned.uint(1000));
        item.setEventValueListener((i, f) -> events.add(new Event(
                (String) f[0].value(),
                ((Number) f[1].value()).intValue(),
                ((org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText) f[2].value()).text())));
        subscription.addMonitoredItem(item);
        subscription.synchronizeMonitoredItems();
        return events;
    }

    private static SimpleAttributeOperand field(String name) {
        return new SimpleAttributeOperand(
                NodeIds.BaseEventType, new QualifiedName[] {new QualifiedName(0, name)}, AttributeId.Value.uid(), null);
    }

    public DataValue read(NodeId node) throws Exception {
        return client.readValues(0.0, TimestampsToReturn.Both, List.of(node)).get(0);
    }

    /** The raw history of {@code node}, following continuation points, with {@code perCall} values per call. */
    public List<DataValue> history(NodeId node, DateTime start, DateTime end, int perCall) throws Exception {
        List<DataValue> all = new ArrayList<>();
        ByteString cp = null;
        do {
            HistoryReadResponse r = client.historyRead(
                    new ReadRawModifiedDetails(false, start, end, Unsigned.uint(perCall), false),
                    TimestampsToReturn.Both,
                    false,
                    List.of(new HistoryReadValueId(node, null, QualifiedName.NULL_VALUE, cp)));
            HistoryReadResult res = r.getResults()[0];
            if (!res.getStatusCode().isGood()) {
                throw new IllegalStateException("HistoryRead: " + res.getStatusCode());
            }
            ExtensionObject data = res.getHistoryData();
            if (data != null
                    && data.decode(client.getStaticEncodingContext()) instanceof HistoryData h
                    && h.getDataValues() != null) {
                all.addAll(List.of(h.getDataValues()));
            }
            cp = res.getContinuationPoint();
        } while (cp != null && cp.isNotNull());
        return all;
    }

    /** Takes values from {@code q} until one matches, failing after {@code patience}. */
    public static <T> T await(BlockingQueue<T> q, Predicate<T> match, Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        List<T> seen = new ArrayList<>();
        while (true) {
            T v = q.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            assertNotNull(v, "nothing matched within " + patience + "; seen " + seen);
            if (match.test(v)) {
                return v;
            }
            seen.add(v);
        }
    }

    public static Object value(DataValue v) {
        Variant x = v.value();
        return x == null ? null : x.value();
    }

    @Override
    public void close() throws org.eclipse.milo.opcua.stack.core.UaException {
        client.disconnect();
    }
}
