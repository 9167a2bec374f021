package dev.pqsign.opcua;

import dev.pqsign.core.Hex;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Optional;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UShort;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;

/** Reads a sensor's key-state nodes in one request. */
final class KeyStateReader {
    private static final System.Logger LOG = System.getLogger(KeyStateReader.class.getName());

    private static final List<String> NODES = List.of(
            SensorNodes.KEY_GENERATION,
            SensorNodes.KEY_REMAINING,
            SensorNodes.KEY_SECONDS_LEFT,
            SensorNodes.KEY_NEXT_READY,
            SensorNodes.KEY_ALARM,
            SensorNodes.PARAMETER_SET,
            SensorNodes.KEY_ID);

    private KeyStateReader() {}

    /** The sensor's key state; empty for a sensor without those nodes (no rollover) or one not answering. */
    static Optional<Operator.KeyState> read(String name, OpcUaClient c) {
        try {
            UShort ns = c.readNamespaceTable().getIndex(SensorNodes.NAMESPACE_URI);
            if (ns == null) {
                return Optional.empty();
            }
            List<DataValue> v = c.readValues(
                    0.0,
                    TimestampsToReturn.Neither,
                    NODES.stream().map(n -> new NodeId(ns, n)).toList());
            for (DataValue d : v) {
                if (d.statusCode() == null
                        || !d.statusCode().isGood()
                        || d.value() == null
                        || d.value().value() == null) {
                    return Optional.empty(); // a sensor without rollover, or one that has not published yet
                }
            }
            return Optional.of(new Operator.KeyState(
                    name,
                    ((Number) v.get(0).value().value()).longValue(),
                    ((Number) v.get(1).value().value()).longValue(),
                    ((Number) v.get(2).value().value()).doubleValue(),
                    (Boolean) v.get(3).value().value(),
                    String.valueOf(v.get(4).value().value()),
                    String.valueOf(v.get(5).value().value()),
                    Hex.encode(((ByteString) v.get(6).value().value()).bytesOrEmpty())));
        } catch (UaException | RuntimeException e) {
            // A sensor that is down or restarting: the next poll tries again.
            LOG.log(Level.DEBUG, "{0}: cannot read the key state: {1}", name, e.getMessage());
            return Optional.empty();
        }
    }
}
