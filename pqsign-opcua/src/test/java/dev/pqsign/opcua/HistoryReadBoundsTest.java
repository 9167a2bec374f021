package dev.pqsign.opcua;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.ReadingHistory;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.testing.MemoryStateStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryData;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadRawModifiedDetails;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile HistoryRead requests and many sessions against a real sensor server, from Milo clients
 * over loopback: every request gets a bounded answer (the standard status past a bound, continuation
 * points past the byte budget), and the sensor keeps publishing and serving other clients.
 */
class HistoryReadBoundsTest {

    @TempDir
    Path dir;

    private final Ed25519TestDouble key = Ed25519TestDouble.generate();
    private final List<OpcUaClient> clients = new ArrayList<>();
    private SequencedSigner signer;
    private ReadingHistory history;
    private SensorServer sensor;

    private void startSensor(int historyCount) throws Exception {
        signer = SequencedSigner.open(key.signer(), MemoryStateStore.empty("counter"), 1);
        history = ReadingHistory.inMemory(historyCount, Duration.ofHours(1), Clock.systemUTC());
        sensor = SensorServer.start(
                SensorServer.Config.loopback("bounds", dir.resolve("sensor"), TransportSecurity.NONE),
                new SensorKey(signer, key.keyId()),
                history);
    }

    @AfterEach
    void stop() throws Exception {
        for (OpcUaClient c : clients) {
            try {
                c.disconnect();
            } catch (UaException ignored) {
                // the server may have dropped it
            }
        }
        if (sensor != null) {
            sensor.close();
        }
        if (history != null) {
            history.close();
        }
        if (signer != null) {
            signer.close();
        }
    }

    private OpcUaClient client() throws UaException {
        OpcUaClient c = OpcUaClient.create(sensor.endpointUrl());
        clients.add(c);
        c.connect();
        return c;
    }

    /** A reading of about {@code bytes} UTF-8 bytes (the record is a little larger). */
    private static String reading(int i, int bytes) {
        String head = i + ".00,";
        return head + "x".repeat(Math.max(0, bytes - head.length()));
    }

    private void publish(int n, int bytes) {
        for (int i = 0; i < n; i++) {
            sensor.publish(reading(i, bytes));
        }
    }

    private static ReadRawModifiedDetails raw(long valuesPerNode) {
        return new ReadRawModifiedDetails(
                false,
                new DateTime(java.time.Instant.EPOCH),
                DateTime.MAX_DATE_TIME,
                Unsigned.uint(valuesPerNode),
                false);
    }

    private List<HistoryReadValueId> recordNodes(int n, List<ByteString> continuationPoints) {
        NodeId record = sensor.nodeId(SensorNodes.RECORD);
        List<HistoryReadValueId> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ByteString cp = continuationPoints == null ? null : continuationPoints.get(i);
            ids.add(new HistoryReadValueId(record, null, QualifiedName.NULL_VALUE, cp));
        }
        return ids;
    }

    private static DataValue[] values(OpcUaClient c, HistoryReadResult r) {
        if (r.getHistoryData() == null) {
            return new DataValue[0];
        }
        HistoryData h = (HistoryData) r.getHistoryData().decode(c.getStaticEncodingContext());
        return h.getDataValues() == null ? new DataValue[0] : h.getDataValues();
    }

    private static long valueBytes(DataValue[] values) {
        long n = 0;
        for (DataValue v : values) {
            n += ((ByteString) v.value().value()).length();
        }
        return n;
    }

    /** The status of the service fault {@code f} failed with, or fails the test if it did not fail so. */
    private static long serviceFault(Throwable f) {
        Throwable t = f instanceof ExecutionException e ? e.getCause() : f;
        if (t instanceof UaException u) {
            return u.getStatusCode().value();
        }
        throw new AssertionError("not an OPC UA fault", t);
    }

    @Test
    @Timeout(120)
    void historyRead_ofMoreNodesThanTheLimit_refusedWithTooManyOperations() throws Exception {
        startSensor(100);
        publish(50, 40);
        OpcUaClient c = client();
        long status;
        try {
            HistoryReadResponse r = c.historyRead(raw(1000), TimestampsToReturn.Source, false, recordNodes(1000, null));
            fail("1,000 nodes answered with " + r.getResponseHeader().getServiceResult() + " and "
                    + r.getResults().length + " results");
            return;
        } catch (UaException e) {
            status = serviceFault(e);
        }
        assertEquals(
                StatusCodes.Bad_TooManyOperations,
                status,
                "status " + Long.toHexString(status) + " ("
                        + StatusCodes.lookup(status).map(s -> s[0]).orElse("?") + ")");
        // at the limit, the same request is served
        HistoryReadResponse ok = c.historyRead(
                raw(1000),
                TimestampsToReturn.Source,
                false,
                recordNodes(SensorLimits.MAX_NODES_PER_HISTORY_READ, null));
        assertEquals(SensorLimits.MAX_NODES_PER_HISTORY_READ, ok.getResults().length);
        for (HistoryReadResult r : ok.getResults()) {
            assertTrue(r.getStatusCode().isGood(), r.getStatusCode().toString());
        }
    }

    @Test
    @Timeout(120)
    void historyRead_ofManyNodesOfLargeRecords_staysWithinOneByteBudget_continuationPointsReachEveryValue()
            throws Exception {
        int n = 600;
        startSensor(n);
        publish(n, 4000);
        OpcUaClient c = client();
        int nodes = SensorLimits.MAX_NODES_PER_HISTORY_READ;
        List<List<ByteString>> seen = new ArrayList<>();
        List<ByteString> cps = new ArrayList<>(Collections.nCopies(nodes, (ByteString) null));
        for (int i = 0; i < nodes; i++) {
            seen.add(new ArrayList<>());
        }
        // the first call reads every node from the start; later calls only the nodes with a continuation point
        List<Integer> pending = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            pending.add(i);
        }
        int calls = 0;
        while (!pending.isEmpty()) {
            assertTrue(++calls < 1_000, "continuation points do not end");
            List<HistoryReadValueId> ids = new ArrayList<>();
            for (int i : pending) {
                ids.add(new HistoryReadValueId(
                        sensor.nodeId(SensorNodes.RECORD), null, QualifiedName.NULL_VALUE, cps.get(i)));
            }
            HistoryReadResponse response = c.historyRead(raw(0), TimestampsToReturn.Source, false, ids);
            long bytes = 0;
            List<Integer> next = new ArrayList<>();
            for (int k = 0; k < pending.size(); k++) {
                int i = pending.get(k);
                HistoryReadResult r = response.getResults()[k];
                assertTrue(r.getStatusCode().isGood(), r.getStatusCode().toString());
                DataValue[] v = values(c, r);
                bytes += valueBytes(v);
                for (DataValue dv : v) {
                    seen.get(i).add((ByteString) dv.value().value());
                }
                ByteString cp = r.getContinuationPoint();
                if (cp != null && cp.isNotNull()) {
                    cps.set(i, cp);
                    next.add(i);
                }
            }
            assertTrue(
                    bytes <= SensorNamespace.MAX_HISTORY_BYTES_PER_READ + 4200L,
                    "one response carried " + bytes + " bytes of values");
            pending = next;
        }
        assertTrue(calls > nodes * (long) n * 4000 / SensorNamespace.MAX_HISTORY_BYTES_PER_READ, calls + " calls");
        List<ByteString> all = seen.get(0);
        assertEquals(n, all.size());
        for (int i = 1; i < nodes; i++) {
            assertEquals(n, seen.get(i).size(), "node " + i);
            for (int j = 0; j < n; j++) {
                assertArrayEquals(
                        all.get(j).bytesOrEmpty(), seen.get(i).get(j).bytesOrEmpty(), "node " + i + " value " + j);
            }
        }
    }

    @Test
    @Timeout(180)
    void hostileHistoryReads_boundedAndRefusedPastTheConcurrencyLimit_whileTheSensorPublishesAndServesOthers()
            throws Exception {
        startSensor(600);
        publish(600, 4000);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong published = new AtomicLong();
        Thread publisher = new Thread(() -> {
            int i = 0;
            while (!stop.get()) {
                sensor.publish(reading(i++, 4000));
                published.set(i);
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        publisher.start();
        try {
            OpcUaClient hostile = client();
            Map<Long, Integer> outcomes = new ConcurrentHashMap<>();
            long indexBefore = readIndex(client());
            for (int round = 0; round < 3; round++) {
                List<CompletableFuture<HistoryReadResponse>> burst = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    burst.add(hostile.historyReadAsync(
                            raw(1000),
                            TimestampsToReturn.Source,
                            false,
                            recordNodes(SensorLimits.MAX_NODES_PER_HISTORY_READ, null)));
                }
                // while the burst is served: a new client connects and reads
                OpcUaClient other = client();
                long index = readIndex(other);
                assertTrue(index >= indexBefore, "index " + index + " after " + indexBefore);
                for (CompletableFuture<HistoryReadResponse> f : burst) {
                    try {
                        HistoryReadResponse r = f.get(60, TimeUnit.SECONDS);
                        long bytes = 0;
                        for (HistoryReadResult res : r.getResults()) {
                            assertTrue(
                                    res.getStatusCode().isGood(),
                                    res.getStatusCode().toString());
                            bytes += valueBytes(values(hostile, res));
                        }
                        assertTrue(bytes <= SensorNamespace.MAX_HISTORY_BYTES_PER_READ + 4200L, bytes + " bytes");
                        outcomes.merge(StatusCodes.Good, 1, Integer::sum);
                    } catch (ExecutionException e) {
                        outcomes.merge(serviceFault(e), 1, Integer::sum);
                    }
                }
            }
            assertTrue(outcomes.getOrDefault(StatusCodes.Good, 0) > 0, "outcomes " + outcomes);
            assertTrue(
                    outcomes.getOrDefault(StatusCodes.Bad_ResourceUnavailable, 0) > 0,
                    "no request refused past the concurrency limit: " + outcomes);
            assertEquals(
                    outcomes.getOrDefault(StatusCodes.Good, 0)
                            + outcomes.getOrDefault(StatusCodes.Bad_ResourceUnavailable, 0),
                    150,
                    "outcomes " + outcomes);
            long after = readIndex(client());
            assertTrue(after > indexBefore, "the published index did not advance: " + indexBefore + " → " + after);
        } finally {
            stop.set(true);
            publisher.join();
        }
        assertTrue(published.get() > 0);
    }

    @Test
    @Timeout(180)
    void sessions_pastTheLimit_refusedWithTooManySessions_theOthersStillServed() throws Exception {
        startSensor(10);
        publish(1, 40);
        List<OpcUaClient> open = new ArrayList<>();
        List<CompletableFuture<OpcUaClient>> connecting = new ArrayList<>();
        for (int i = 0; i < SensorLimits.MAX_SESSIONS; i++) {
            OpcUaClient c = OpcUaClient.create(sensor.endpointUrl());
            clients.add(c);
            open.add(c);
            connecting.add(c.connectAsync());
        }
        for (CompletableFuture<OpcUaClient> f : connecting) {
            f.get(60, TimeUnit.SECONDS);
        }
        OpcUaClient extra = OpcUaClient.create(sensor.endpointUrl());
        clients.add(extra);
        long status;
        try {
            extra.connect();
            fail("session " + (SensorLimits.MAX_SESSIONS + 1) + " was created");
            return;
        } catch (UaException e) {
            status = serviceFault(e);
        }
        assertEquals(StatusCodes.Bad_TooManySessions, status, Long.toHexString(status));
        sensor.publish(reading(1, 40));
        assertEquals(1, readIndex(open.get(0)));
        assertEquals(1, readIndex(open.get(open.size() - 1)));
        // the limits the server advertises are the ones it applies
        UInteger perHistoryRead = (UInteger) open.get(0)
                .readValue(
                        0.0,
                        TimestampsToReturn.Neither,
                        NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerHistoryReadData)
                .value()
                .value();
        assertEquals(SensorLimits.MAX_NODES_PER_HISTORY_READ, perHistoryRead.intValue());
    }

    private long readIndex(OpcUaClient c) throws UaException {
        DataValue v = c.readValue(0.0, TimestampsToReturn.Neither, sensor.nodeId(SensorNodes.INDEX));
        return ((UInteger) v.value().value()).longValue();
    }
}
