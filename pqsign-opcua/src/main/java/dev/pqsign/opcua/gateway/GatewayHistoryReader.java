package dev.pqsign.opcua.gateway;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryData;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadRawModifiedDetails;

/**
 * Serves HistoryRead (raw) of the historized leaves ({@code reading}, {@code value},
 * {@code value.NAME}) from the sensors' {@link SensorHistory}, oldest first (docs/gateway.md,
 * "History"). Bounded per request: at most {@link GatewayLimits#MAX_HISTORY_VALUES_PER_NODE} values
 * per node (or the client's numValuesPerNode), {@link GatewayLimits#MAX_HISTORY_BYTES_PER_READ}
 * bytes of entries for all nodes together, and {@link GatewayLimits#MAX_HISTORY_SCAN_PER_NODE}
 * entries looked at per node; past any of them a continuation point says where the next call
 * goes on. Continuation points are the next entry's sequence number (8 bytes): the server keeps
 * nothing for them, so there is no limit on how many a client holds.
 */
final class GatewayHistoryReader {

    private final GatewayNamespace namespace;
    private final GatewayHistory history;

    GatewayHistoryReader(GatewayNamespace namespace, GatewayHistory history) {
        this.namespace = namespace;
        this.history = history;
    }

    boolean enabled() {
        return history != null;
    }

    static boolean isHistorized(String leaf) {
        return leaf.equals(GatewayNodes.READING)
                || leaf.equals(GatewayNodes.VALUE)
                || leaf.startsWith(GatewayNodes.VALUE_PREFIX);
    }

    /** The bytes of entries one response has left, shared by its nodes. */
    private static final class Budget {
        private long left = GatewayLimits.MAX_HISTORY_BYTES_PER_READ;
        private boolean empty = true;

        boolean take(long size) {
            if (!empty && size > left) {
                return false;
            }
            left -= size;
            empty = false;
            return true;
        }
    }

    List<HistoryReadResult> read(HistoryReadDetails details, List<HistoryReadValueId> ids) {
        List<HistoryReadResult> results = new ArrayList<>(ids.size());
        Budget budget = new Budget();
        for (HistoryReadValueId id : ids) {
            results.add(readOne(details, id, budget));
        }
        return results;
    }

    private static HistoryReadResult status(long code) {
        return new HistoryReadResult(new StatusCode(code), null, null);
    }

    private HistoryReadResult readOne(HistoryReadDetails details, HistoryReadValueId id, Budget budget) {
        String[] sl = namespace.sensorAndLeaf(id.getNodeId());
        if (history == null || sl == null || !isHistorized(sl[1]) || history.of(sl[0]) == null) {
            return status(StatusCodes.Bad_HistoryOperationUnsupported);
        }
        if (!(details instanceof ReadRawModifiedDetails raw) || Boolean.TRUE.equals(raw.getIsReadModified())) {
            return status(StatusCodes.Bad_HistoryOperationUnsupported);
        }
        long from = raw.getStartTime() == null || raw.getStartTime().isNull()
                ? Long.MIN_VALUE
                : HistoryFormat.nanos(raw.getStartTime().getJavaInstant());
        long to = raw.getEndTime() == null || raw.getEndTime().isNull()
                ? Long.MAX_VALUE
                : HistoryFormat.nanos(raw.getEndTime().getJavaInstant());
        if (from > to) {
            return status(StatusCodes.Bad_HistoryOperationUnsupported); // backwards reads are not served
        }
        SensorHistory h = history.of(sl[0]);
        long fromSequence = 0;
        ByteString cp = id.getContinuationPoint();
        if (cp != null && cp.isNotNull()) {
            byte[] b = cp.bytesOrEmpty();
            if (b.length != 8 || ByteBuffer.wrap(b).getLong() < 1) {
                return status(StatusCodes.Bad_ContinuationPointInvalid);
            }
            fromSequence = Math.max(ByteBuffer.wrap(b).getLong(), h.oldestSequence());
        }
        long wanted = raw.getNumValuesPerNode() == null
                ? 0
                : raw.getNumValuesPerNode().longValue();
        int max = (int)
                (wanted == 0
                        ? GatewayLimits.MAX_HISTORY_VALUES_PER_NODE
                        : Math.min(wanted, GatewayLimits.MAX_HISTORY_VALUES_PER_NODE));
        String leaf = sl[1];
        long end = to;
        long start = from;
        List<DataValue> values = new ArrayList<>();
        long[] next = {-1};
        int[] scanned = {0};
        boolean complete;
        try {
            complete = h.read(fromSequence, from, (e, bytes) -> {
                if (values.size() >= max
                        || scanned[0] >= GatewayLimits.MAX_HISTORY_SCAN_PER_NODE
                        || !budget.take(bytes)) {
                    next[0] = e.sequence();
                    return false;
                }
                scanned[0]++;
                long t = HistoryFormat.nanos(e.sourceTime());
                // Part 11: from the start time inclusive to the end time exclusive (inclusive if equal).
                if (t >= start && (t < end || (start == end && t == end))) {
                    ReadingValues parsed = ReadingValues.parse(e.reading());
                    Variant v = value(leaf, e.reading(), parsed);
                    if (v != null) {
                        values.add(new DataValue(v, parsed.sourceStatus(), dt(e.sourceTime()), dt(e.verdictTime())));
                    }
                }
                return true;
            });
        } catch (IOException e) {
            return status(StatusCodes.Bad_HistoryOperationInvalid);
        }
        ByteString nextPoint = complete || next[0] < 0
                ? null
                : ByteString.of(ByteBuffer.allocate(8).putLong(next[0]).array());
        ExtensionObject data = ExtensionObject.encode(
                namespace.server().getStaticEncodingContext(), new HistoryData(values.toArray(new DataValue[0])));
        return new HistoryReadResult(StatusCode.GOOD, nextPoint, data);
    }

    /** The leaf's value in an entry's reading, or null if it has none (e.g. no such named field). */
    static Variant value(String leaf, String reading, ReadingValues v) {
        if (leaf.equals(GatewayNodes.READING)) {
            return new Variant(reading);
        }
        if (leaf.equals(GatewayNodes.VALUE)) {
            return v.hasValue() ? new Variant(v.value()) : null;
        }
        Double d = v.named().get(leaf.substring(GatewayNodes.VALUE_PREFIX.length()));
        return d == null ? null : new Variant(d);
    }

    private static DateTime dt(Instant t) {
        return new DateTime(t);
    }
}
