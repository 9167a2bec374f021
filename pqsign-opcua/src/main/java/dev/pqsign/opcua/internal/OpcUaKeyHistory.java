package dev.pqsign.opcua.internal;

import dev.pqsign.opcua.SensorNodes;
import dev.pqsign.telemetry.operator.KeyHistory;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UShort;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;

/**
 * A sensor's key history over OPC UA: the histories of {@link SensorNodes#KEY_HANDOVER} and
 * {@link SensorNodes#KEY_CERTIFICATES} (HistoryRead from the start), or, from a sensor that keeps
 * none, the two nodes' current values read in one request (the sensor serves them under one lock,
 * so the certificates belong to the handover). A failed request is an {@link IOException}.
 */
public final class OpcUaKeyHistory implements KeyHistory {
    private final OpcUaClient client;

    /**
     * The key history of the sensor {@code client} is connected to.
     *
     * @param client the connected client
     */
    public OpcUaKeyHistory(OpcUaClient client) {
        this.client = client;
    }

    @Override
    public Optional<List<byte[]>> handovers() throws IOException {
        return list(SensorNodes.KEY_HANDOVER);
    }

    @Override
    public Optional<List<byte[]>> certificateChains() throws IOException {
        return list(SensorNodes.KEY_CERTIFICATES);
    }

    @Override
    public Latest latest() throws IOException {
        try {
            Optional<UShort> ns = namespace();
            if (ns.isEmpty()) {
                return new Latest(null, null);
            }
            List<DataValue> dv = client.readValues(
                    0.0,
                    TimestampsToReturn.Neither,
                    List.of(
                            new NodeId(ns.get(), SensorNodes.KEY_HANDOVER),
                            new NodeId(ns.get(), SensorNodes.KEY_CERTIFICATES)));
            return new Latest(bytes(dv.get(0)), bytes(dv.get(1)));
        } catch (UaException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private Optional<List<byte[]>> list(String nodeName) throws IOException {
        try {
            Optional<UShort> ns = namespace();
            if (ns.isEmpty()) {
                return Optional.of(List.of());
            }
            List<byte[]> out = new ArrayList<>();
            HistoryReader.Outcome o = HistoryReader.read(client, new NodeId(ns.get(), nodeName), Instant.EPOCH, v -> {
                byte[] b = bytes(v);
                if (b != null && b.length > 0) {
                    out.add(b);
                }
            });
            return o instanceof HistoryReader.Complete ? Optional.of(out) : Optional.empty();
        } catch (UaException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private Optional<UShort> namespace() throws UaException {
        return Optional.ofNullable(client.readNamespaceTable().getIndex(SensorNodes.NAMESPACE_URI));
    }

    private static byte[] bytes(DataValue v) {
        return v.value() != null && v.value().value() instanceof ByteString b ? b.bytesOrEmpty() : null;
    }
}
