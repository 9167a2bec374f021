package dev.pqsign.opcua.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.SensorServer;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.FaultInjector;
import dev.pqsign.telemetry.ReadingSigner;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.Verdict.Reason;
import dev.pqsign.telemetry.operator.AcceptedRecords;
import dev.pqsign.telemetry.operator.Observation;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.ReplayGuard;
import dev.pqsign.telemetry.upstream.ChannelSecurity;
import dev.pqsign.telemetry.upstream.ScalarType;
import dev.pqsign.telemetry.upstream.UpstreamDown;
import dev.pqsign.telemetry.upstream.UpstreamEvent;
import dev.pqsign.telemetry.upstream.UpstreamNoValue;
import dev.pqsign.telemetry.upstream.UpstreamStatus;
import dev.pqsign.telemetry.upstream.UpstreamTime;
import dev.pqsign.telemetry.upstream.UpstreamUp;
import dev.pqsign.telemetry.upstream.UpstreamValue;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sensor, operator and gateway in one process, a Milo client of the gateway, all over loopback sockets. */
class GatewayServerTest {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private final Ed25519TestDouble key = Ed25519TestDouble.generate();
    private final BlockingQueue<Observation> obs = new LinkedBlockingQueue<>();
    private SequencedSigner signer;
    private FaultInjector faults;
    private SensorServer sensor;
    private ReplayGuard guard;
    private AcceptedRecords accepted;
    private Operator operator;
    private GatewayServer gateway;
    private GatewayClient client;

    @BeforeEach
    void start() throws Exception {
        signer = SequencedSigner.openFile(key.signer(), dir.resolve("sensor.seq"), 1);
        faults = new FaultInjector(new SensorKey(signer, key.keyId()));
        sensor = SensorServer.start(
                SensorServer.Config.loopback("s1", dir.resolve("sensor"), TransportSecurity.NONE), faults.key());
        startGatewayAndOperator();
    }

    private void startGatewayAndOperator() throws Exception {
        gateway = GatewayServer.start(GatewayServer.Config.loopback(dir.resolve("gateway")), List.of("s1"));
        guard = ReplayGuard.inDirectory(dir.resolve("replay"));
        accepted = AcceptedRecords.inDirectory(dir.resolve("accepted"), 64);
        operator = new Operator(
                new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2),
                new ReadingVerifier(
                        guard,
                        List.of(new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE)),
                        accepted,
                        dir.resolve("evidence")),
                o -> {
                    gateway.observe(o);
                    obs.add(o);
                });
        operator.onConnectionChange(gateway::connectionChanged);
        client = new GatewayClient(gateway.endpointUrl());
    }

    private void stopGatewayAndOperator() throws Exception {
        client.close();
        operator.close();
        guard.close();
        accepted.close();
        gateway.close();
    }

    @AfterEach
    void stop() throws Exception {
        stopGatewayAndOperator();
        sensor.close();
        signer.close();
    }

    private void connect() throws Exception {
        assertTrue(operator.connect("s1", sensor.endpointUrl()).awaitConnected(PATIENCE));
    }

    /** Publishes and waits for the operator's verdict on it. */
    private Observation publish(String reading) throws InterruptedException {
        return observe(sensor.publish(reading).sequence());
    }

    private Observation observe(long seq) throws InterruptedException {
        while (true) {
            Observation o = obs.poll(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            assertNotNull(o, "no observation for publication " + seq);
            if (o.sequence() == seq && o.isReading()) {
                return o;
            }
        }
    }

    @Test
    void accepted_isServedGood_withTheSignedTimeAsSourceAndTheVerdictTimeAsServerTimestamp() throws Exception {
        BlockingQueue<DataValue> reading = client.subscribe(client.id("s1", GatewayNodes.READING));
        BlockingQueue<DataValue> value = client.subscribe(client.id("s1", GatewayNodes.VALUE));
        connect();
        Instant before = Instant.now();
        Observation o = publish("1503.25,2026-11-30T01:26:16.123456789Z,temp=21.5");
        assertEquals(Reason.ACCEPTED, o.verdict().reason());

        DataValue r = GatewayClient.await(reading, v -> v.statusCode().isGood(), PATIENCE);
        assertEquals("1503.25,2026-11-30T01:26:16.123456789Z,temp=21.5", GatewayClient.value(r));
        assertEquals(
                Instant.parse("2026-11-30T01:26:16.123456700Z"),
                r.sourceTime().getJavaInstant(),
                "source timestamp: the signed time of the text (OPC UA ticks of 100 ns)");
        Instant server = r.serverTime().getJavaInstant();
        assertTrue(
                !server.isBefore(before.minusMillis(1)) && !server.isAfter(Instant.now()),
                "server timestamp " + server);
        assertEquals(
                1503.25,
                GatewayClient.value(
                        GatewayClient.await(value, v -> v.statusCode().isGood(), PATIENCE)));
        // A value.NAME variable exists from the first accepted reading that carries the name.
        BlockingQueue<DataValue> temp = client.subscribe(client.id("s1", "value.temp"));
        assertEquals(
                21.5,
                GatewayClient.value(
                        GatewayClient.await(temp, v -> v.statusCode().isGood(), PATIENCE)));
        assertEquals(1L, GatewayClient.value(client.read(client.id("s1", GatewayNodes.COUNT_ACCEPTED))));
        assertEquals(key.keyId().hex(), GatewayClient.value(client.read(client.id("s1", GatewayNodes.KEY_ID))));
        assertEquals("connected", GatewayClient.value(client.read(client.id("s1", GatewayNodes.CONNECTION))));
    }

    @Test
    void tampered_neverBecomesTheValue_statusTurnsUncertain_eventRaised_counted() throws Exception {
        BlockingQueue<DataValue> reading = client.subscribe(client.id("s1", GatewayNodes.READING));
        BlockingQueue<GatewayClient.Event> events = client.subscribeEvents(new NodeId(client.ns, "s1"));
        connect();
        assertEquals(Reason.ACCEPTED, publish("100.5").verdict().reason());
        GatewayClient.await(reading, v -> v.statusCode().isGood(), PATIENCE);

        assertEquals(
                Reason.BAD_SIGNATURE,
                observe(faults.tampered("200.5", sensor::publish).sequence())
                        .verdict()
                        .reason());
        DataValue turned = GatewayClient.await(reading, v -> !v.statusCode().isGood(), PATIENCE);
        assertEquals("100.5", GatewayClient.value(turned), "the last good value stays");
        assertEquals(StatusCodes.Uncertain_LastUsableValue, turned.statusCode().value());
        GatewayClient.Event e = GatewayClient.await(events, x -> true, PATIENCE);
        assertEquals("s1", e.sourceName());
        assertEquals(900, e.severity());
        assertTrue(e.message().startsWith("BAD_SIGNATURE index 1"), e.message());
        assertEquals(1L, GatewayClient.value(client.read(client.id("s1", GatewayNodes.COUNT_REJECTED))));
        assertEquals("REJECTED", GatewayClient.value(client.read(client.id("s1", GatewayNodes.VERDICT))));
        assertEquals("BAD_SIGNATURE", GatewayClient.value(client.read(client.id("s1", GatewayNodes.VERDICT_REASON))));
        DataValue value = client.read(client.id("s1", GatewayNodes.VALUE));
        assertEquals(100.5, GatewayClient.value(value));
        assertEquals(StatusCodes.Uncertain_LastUsableValue, value.statusCode().value());

        assertEquals(Reason.ACCEPTED, publish("300.5").verdict().reason());
        DataValue back = GatewayClient.await(reading, v -> v.statusCode().isGood(), PATIENCE);
        assertEquals("300.5", GatewayClient.value(back));
    }

    @Test
    void upstreamFacts_aValueIsServedWithItsUpstreamTimeAndStatus_anOutageTurnsTheStatus() throws Exception {
        String node = "ns=3;s=Motor.Speed";
        Instant t1 = Instant.parse("2026-12-03T10:15:30.123456789Z");
        BlockingQueue<DataValue> reading = client.subscribe(client.id("s1", GatewayNodes.READING));
        BlockingQueue<DataValue> value = client.subscribe(client.id("s1", GatewayNodes.VALUE));
        connect();
        // the connection fact is signed and accepted, but not a value
        assertEquals(Reason.ACCEPTED, upstream(new UpstreamUp("opc.tcp://plc:4840", ChannelSecurity.NONE, null)));
        assertEquals(
                StatusCodes.Bad_WaitingForInitialData,
                client.read(client.id("s1", GatewayNodes.READING)).statusCode().value());

        UpstreamValue good =
                UpstreamValue.of(node, ScalarType.DOUBLE, "1503.25", UpstreamTime.of(t1), UpstreamStatus.GOOD);
        assertEquals(Reason.ACCEPTED, upstream(good));
        DataValue r = GatewayClient.await(reading, v -> v.statusCode().isGood(), PATIENCE);
        assertEquals(good.text(), GatewayClient.value(r));
        assertEquals(
                Instant.parse("2026-12-03T10:15:30.123456700Z"),
                r.sourceTime().getJavaInstant(),
                "source timestamp: the upstream source time the text carries");
        DataValue v = GatewayClient.await(value, d -> d.statusCode().isGood(), PATIENCE);
        assertEquals(1503.25, GatewayClient.value(v));
        assertEquals(r.sourceTime(), v.sourceTime());

        // the PLC's own status is passed on
        UpstreamValue inaccurate = UpstreamValue.of(
                node,
                ScalarType.FLOAT,
                "1.1",
                UpstreamTime.of(t1.plusSeconds(1)),
                new UpstreamStatus("Uncertain_SensorNotAccurate", 0x0400));
        assertEquals(Reason.ACCEPTED, upstream(inaccurate));
        DataValue u = GatewayClient.await(value, d -> !d.statusCode().isGood(), PATIENCE);
        assertEquals((double) 1.1f, GatewayClient.value(u), "a Float widened exactly");
        assertEquals(StatusCodes.Uncertain_SensorNotAccurate, u.statusCode().value(), "the code, without info bits");

        // a notification without a value: the last value stays, with the upstream's status
        assertEquals(
                Reason.ACCEPTED, upstream(new UpstreamNoValue(node, null, new UpstreamStatus("Bad_NotConnected", 0))));
        DataValue nc =
                GatewayClient.await(value, d -> d.statusCode().value() == StatusCodes.Bad_NotConnected, PATIENCE);
        assertEquals((double) 1.1f, GatewayClient.value(nc));

        // the upstream is down: no communication; the next value is Good again
        assertEquals(
                Reason.ACCEPTED, upstream(UpstreamDown.of(UpstreamTime.of(t1.plusSeconds(2)), "connection refused")));
        GatewayClient.await(
                value, d -> d.statusCode().value() == StatusCodes.Uncertain_NoCommunicationLastUsableValue, PATIENCE);
        UpstreamValue back =
                UpstreamValue.of(node, ScalarType.INT32, "-7", UpstreamTime.of(t1.plusSeconds(3)), UpstreamStatus.GOOD);
        assertEquals(Reason.ACCEPTED, upstream(back));
        assertEquals(
                -7.0,
                GatewayClient.value(
                        GatewayClient.await(value, d -> d.statusCode().isGood(), PATIENCE)));

        List<DataValue> h = client.history(
                client.id("s1", GatewayNodes.VALUE), DateTime.MIN_DATE_TIME, DateTime.MAX_DATE_TIME, 100);
        assertEquals(
                List.of(1503.25, (double) 1.1f, -7.0),
                h.stream().map(GatewayClient::value).toList());
        assertEquals(
                List.of(StatusCodes.Good, StatusCodes.Uncertain_SensorNotAccurate, StatusCodes.Good),
                h.stream().map(d -> d.statusCode().value()).toList(),
                "the history keeps each value's upstream status");
    }

    private Reason upstream(UpstreamEvent fact) throws InterruptedException {
        return observe(sensor.publishUpstream(fact).sequence()).verdict().reason();
    }

    @Test
    void gap_isCountedAndRaisesAnEvent_theNextValueIsGood() throws Exception {
        BlockingQueue<GatewayClient.Event> events = client.subscribeEvents(NodeIds.Server);
        connect();
        assertEquals(Reason.ACCEPTED, publish("1").verdict().reason());
        ReadingSigner bypass = new ReadingSigner(signer);
        bypass.sign("never published");
        bypass.sign("never published either");
        assertEquals(Reason.ACCEPTED, publish("4").verdict().reason());
        GatewayClient.Event e = GatewayClient.await(events, x -> x.message().startsWith("GAP"), PATIENCE);
        assertEquals(400, e.severity());
        assertTrue(e.message().startsWith("GAP indices 1..2"), e.message());
        assertEquals(1L, GatewayClient.value(client.read(client.id("s1", GatewayNodes.COUNT_GAPS))));
        assertEquals(2L, GatewayClient.value(client.read(client.id("s1", GatewayNodes.COUNT_MISSING))));
        DataValue v = client.read(client.id("s1", GatewayNodes.VALUE));
        assertEquals(4.0, GatewayClient.value(v));
        assertTrue(v.statusCode().isGood());
    }

    @Test
    void historyRead_returnsWhatWasAccepted_inOrder_acrossContinuationPoints() throws Exception {
        connect();
        for (int i = 0; i < 25; i++) {
            assertEquals(Reason.ACCEPTED, publish(i + ".5,x=" + i).verdict().reason());
            if (i == 10) {
                assertEquals(
                        Reason.BAD_SIGNATURE,
                        observe(faults.tampered("666", sensor::publish).sequence())
                                .verdict()
                                .reason());
            }
        }
        List<DataValue> h = client.history(
                client.id("s1", GatewayNodes.READING), DateTime.MIN_DATE_TIME, DateTime.MAX_DATE_TIME, 7);
        assertEquals(25, h.size(), "every accepted reading, the tampered one not");
        for (int i = 0; i < 25; i++) {
            assertEquals(i + ".5,x=" + i, GatewayClient.value(h.get(i)));
            assertTrue(h.get(i).statusCode().isGood());
        }
        List<DataValue> x =
                client.history(client.id("s1", "value.x"), DateTime.MIN_DATE_TIME, DateTime.MAX_DATE_TIME, 1000);
        assertEquals(25, x.size());
        assertEquals(24.0, GatewayClient.value(x.get(24)));
        // A time range: from the 6th reading's source time to the 9th's (exclusive).
        List<DataValue> range = client.history(
                client.id("s1", GatewayNodes.VALUE),
                h.get(5).sourceTime(),
                h.get(8).sourceTime(),
                1000);
        assertEquals(
                List.of(5.5, 6.5, 7.5), range.stream().map(GatewayClient::value).toList());
    }

    @Test
    void restart_servesTheLastAcceptedValueAgain_uncertainUntilTheSensorIsConnected() throws Exception {
        connect();
        assertEquals(Reason.ACCEPTED, publish("42.5").verdict().reason());
        stopGatewayAndOperator();
        gateway = GatewayServer.start(GatewayServer.Config.loopback(dir.resolve("gateway")), List.of("s1"));
        client = new GatewayClient(gateway.endpointUrl());
        DataValue v = client.read(client.id("s1", GatewayNodes.VALUE));
        assertEquals(42.5, GatewayClient.value(v));
        assertEquals(
                StatusCodes.Uncertain_NoCommunicationLastUsableValue,
                v.statusCode().value());
        assertEquals(
                1,
                client.history(
                                client.id("s1", GatewayNodes.READING),
                                DateTime.MIN_DATE_TIME,
                                DateTime.MAX_DATE_TIME,
                                100)
                        .size());
        client.close();
        gateway.close();
        startGatewayAndOperator();
        connect();
        BlockingQueue<DataValue> value = client.subscribe(client.id("s1", GatewayNodes.VALUE));
        assertEquals(
                42.5,
                GatewayClient.value(
                        GatewayClient.await(value, d -> d.statusCode().isGood(), PATIENCE)));
    }

    @Test
    void writeCallAndNodeManagement_areRefused() throws Exception {
        connect();
        assertEquals(Reason.ACCEPTED, publish("7.5").verdict().reason());
        List<StatusCode> w = client.client.writeValues(
                List.of(client.id("s1", GatewayNodes.READING), NodeIds.Server_ServerStatus_State),
                List.of(DataValue.valueOnly(new Variant("forged")), DataValue.valueOnly(new Variant(0))));
        assertEquals(
                List.of(StatusCodes.Bad_NotWritable, StatusCodes.Bad_NotWritable),
                w.stream().map(StatusCode::value).toList());
        assertEquals("7.5", GatewayClient.value(client.read(client.id("s1", GatewayNodes.READING))));
        UaException call = assertThrows(
                UaException.class,
                () -> client.client.call(
                        List.of(new CallMethodRequest(NodeIds.Server, NodeIds.Server_GetMonitoredItems, new Variant[] {
                            new Variant(org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint(1))
                        }))));
        assertEquals(StatusCodes.Bad_ServiceUnsupported, call.getStatusCode().value());
        UaException add = assertThrows(UaException.class, () -> client.client.addNodes(List.of()));
        assertEquals(StatusCodes.Bad_ServiceUnsupported, add.getStatusCode().value());
    }
}
