package dev.pqsign.opcua.internal;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryData;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadRawModifiedDetails;

/** Raw history of one node, read batch by batch with continuation points. */
public final class HistoryReader {
    /** Values asked for per HistoryRead call. */
    public static final int BATCH = 1000;

    private HistoryReader() {}

    /** What a history read came to. */
    public sealed interface Outcome {}

    /** The node's history was read to its end. */
    public record Complete() implements Outcome {}

    /**
     * The server keeps no history of the node (or refused the read).
     *
     * @param status the status it answered with
     */
    public record NoHistory(StatusCode status) implements Outcome {}

    /**
     * Reads the raw history of {@code node} from {@code start} (inclusive) to its end, handing each
     * value to {@code each} in order.
     *
     * @param client the connected client
     * @param node the node
     * @param start the source time to start at
     * @param each receives every value
     * @return complete, or that the server has no such history (then nothing was handed over)
     * @throws UaException if a request fails (the values handed over so far stay handed over)
     */
    public static Outcome read(OpcUaClient client, NodeId node, Instant start, Consumer<DataValue> each)
            throws UaException {
        return readPages(client, node, start, page -> {
            for (DataValue dv : page) {
                each.accept(dv);
            }
        });
    }

    /**
     * As {@link #read}, handing over the values one response at a time (a page: at most
     * {@link #BATCH}, as many as the server put into one response), so that a caller can finish
     * the work of a whole page at once, e.g. make what it decided durable with one flush.
     *
     * @param client the connected client
     * @param node the node
     * @param start the source time to start at
     * @param eachPage receives every non-empty page, in order
     * @return complete, or that the server has no such history (then nothing was handed over)
     * @throws UaException if a request fails (the pages handed over so far stay handed over)
     */
    public static Outcome readPages(OpcUaClient client, NodeId node, Instant start, Consumer<List<DataValue>> eachPage)
            throws UaException {
        ByteString cp = null;
        do {
            HistoryReadValueId id = new HistoryReadValueId(node, null, QualifiedName.NULL_VALUE, cp);
            HistoryReadResponse response = client.historyRead(
                    new ReadRawModifiedDetails(
                            false, new DateTime(start), DateTime.MAX_DATE_TIME, Unsigned.uint(BATCH), false),
                    TimestampsToReturn.Source,
                    false,
                    List.of(id));
            HistoryReadResult[] results = response.getResults();
            if (results == null
                    || results.length != 1
                    || !results[0].getStatusCode().isGood()) {
                return new NoHistory(
                        results == null || results.length == 0
                                ? new StatusCode(org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_NoData)
                                : results[0].getStatusCode());
            }
            ExtensionObject data = results[0].getHistoryData();
            if (data != null
                    && data.decode(client.getStaticEncodingContext()) instanceof HistoryData h
                    && h.getDataValues() != null) {
                if (h.getDataValues().length > 0) {
                    eachPage.accept(Arrays.asList(h.getDataValues()));
                }
            }
            cp = results[0].getContinuationPoint();
        } while (cp != null && cp.isNotNull());
        return new Complete();
    }
}
