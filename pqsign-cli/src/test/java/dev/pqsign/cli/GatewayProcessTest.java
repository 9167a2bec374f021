package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.opcua.gateway.GatewayNodes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryData;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadRawModifiedDetails;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pqsign sensor} → {@code pqsign operator --serve} → an OPC UA client, as real processes on
 * loopback: the operator is killed with SIGKILL mid-stream and started again; nothing is accepted
 * twice, the served value recovers by itself, HistoryRead still has the readings of before the kill.
 */
class GatewayProcessTest {
    private static final String SET = "XMSSMT-SHA2_20/4_256";
    private static final Pattern SERVING = Pattern.compile("serving (opc\\.tcp://\\S+)");

    @TempDir
    Path dir;

    private ChildProcesses processes;

    @BeforeEach
    void processes() {
        processes = new ChildProcesses(dir);
    }

    @AfterEach
    void killLeftovers() {
        processes.killAll();
    }

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    private Process operator(String name, String sensorUrl, int port) throws Exception {
        return processes.pqsign(
                name,
                "operator",
                "--url",
                sensorUrl,
                "--pub",
                p("k/key.pub"),
                "--params",
                SET,
                "--publishing-ms",
                "2",
                "--data-dir",
                p("op"),
                // on a loaded machine reaching the sensor can take longer than the default 10 s
                "--connect-timeout",
                "60",
                "--serve",
                Integer.toString(port));
    }

    @Test
    @Timeout(240)
    void operatorKilledAndRestarted_servedValuesRecover_historyKeepsEveryAcceptedReadingOnce() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        Process sensor = processes.pqsign(
                "sensor",
                "sensor",
                "--key",
                p("k/key.state"),
                "--port",
                "0",
                "--rate",
                "20",
                "--data-dir",
                p("sensor-data"));
        String url = processes.endpoint("sensor", sensor);
        int port = ChildProcesses.freePort();
        Process op1 = operator("operator1", url, port);
        Matcher m = SERVING.matcher(
                processes.await("operator1", op1, out -> SERVING.matcher(out).find()));
        assertTrue(m.find());
        String gateway = m.group(1);

        OpcUaClient client = OpcUaClient.create(gateway);
        client.connect();
        try {
            int ns = client.readNamespaceTable()
                    .getIndex(GatewayNodes.NAMESPACE_URI)
                    .intValue();
            NodeId reading = new NodeId(ns, GatewayNodes.nodeId(url, GatewayNodes.READING));
            NodeId index = new NodeId(ns, GatewayNodes.nodeId(url, GatewayNodes.READING_INDEX));
            long before = awaitGoodIndexAbove(client, index, 10, () -> processes.describe("operator1"));
            String seenBefore = (String) client.readValues(0, TimestampsToReturn.Both, List.of(reading))
                    .get(0)
                    .value()
                    .value();

            op1.destroyForcibly(); // SIGKILL mid-stream: the sensor keeps signing
            assertTrue(op1.waitFor(30, TimeUnit.SECONDS));
            Thread.sleep(500);
            Process op2 = operator("operator2", url, port);
            processes.await("operator2", op2, out -> SERVING.matcher(out).find());

            // The same client, reconnected by itself, sees the value move on, Good again.
            long after = awaitGoodIndexAbove(client, index, before + 20, () -> processes.describe("operator2"));
            assertTrue(after > before);

            List<String> history = history(client, reading);
            Set<String> distinct = new HashSet<>(history);
            assertEquals(history.size(), distinct.size(), "no reading accepted twice: " + history);
            assertTrue(distinct.contains(seenBefore), "the history still has " + seenBefore);
            // The sensor keeps a history: what it signed while the operator was down was backfilled.
            assertTrue(history.size() >= after + 1, "every index 0.." + after + " once: " + history.size());
            op2.destroy();
            assertTrue(op2.waitFor(60, TimeUnit.SECONDS), processes.describe("operator2"));
        } finally {
            client.disconnect();
        }
        sensor.destroy();
        assertTrue(sensor.waitFor(60, TimeUnit.SECONDS), processes.describe("sensor"));
    }

    /** Waits until the served reading index is Good and above {@code floor}; returns it. */
    private static long awaitGoodIndexAbove(
            OpcUaClient client, NodeId index, long floor, java.util.concurrent.Callable<String> operator)
            throws Exception {
        long deadline = System.nanoTime() + ChildProcesses.AWAIT.toNanos();
        String last = "nothing";
        while (System.nanoTime() < deadline) {
            try {
                DataValue v = client.readValues(0, TimestampsToReturn.Both, List.of(index))
                        .get(0);
                last = v.toString();
                if (v.statusCode().isGood() && v.value().value() instanceof Long i && i > floor) {
                    return i;
                }
            } catch (org.eclipse.milo.opcua.stack.core.UaException e) {
                last = e.getMessage(); // the gateway is restarting; the client reconnects by itself
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no Good index above " + floor + "; last " + last + "\n" + operator.call());
    }

    private static List<String> history(OpcUaClient client, NodeId node) throws Exception {
        List<String> out = new ArrayList<>();
        ByteString cp = null;
        do {
            HistoryReadResult r = client.historyRead(
                            new ReadRawModifiedDetails(
                                    false, DateTime.MIN_DATE_TIME, DateTime.MAX_DATE_TIME, Unsigned.uint(500), false),
                            TimestampsToReturn.Both,
                            false,
                            List.of(new HistoryReadValueId(node, null, QualifiedName.NULL_VALUE, cp)))
                    .getResults()[0];
            assertTrue(r.getStatusCode().isGood(), r.getStatusCode().toString());
            ExtensionObject data = r.getHistoryData();
            if (data != null
                    && data.decode(client.getStaticEncodingContext()) instanceof HistoryData h
                    && h.getDataValues() != null) {
                for (DataValue v : h.getDataValues()) {
                    out.add((String) v.value().value());
                }
            }
            cp = r.getContinuationPoint();
        } while (cp != null && cp.isNotNull());
        return out;
    }
}
