package dev.pqsign.opcua.upstream.internal;

import dev.pqsign.telemetry.upstream.ScalarType;
import dev.pqsign.telemetry.upstream.UpstreamEvent;
import dev.pqsign.telemetry.upstream.UpstreamNoValue;
import dev.pqsign.telemetry.upstream.UpstreamStatus;
import dev.pqsign.telemetry.upstream.UpstreamTime;
import dev.pqsign.telemetry.upstream.UpstreamUnsupported;
import dev.pqsign.telemetry.upstream.UpstreamValue;
import org.eclipse.milo.opcua.stack.core.OpcUaDataType;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UByte;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.ULong;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UShort;

/** Turns what the upstream server notified into the fact a reading states. */
public final class ValueTexts {
    private ValueTexts() {}

    /**
     * The fact of one notification of a node.
     *
     * @param node the node's string form
     * @param dv the notified value
     * @return a value, a value without value, or a value of an unsupported type
     */
    public static UpstreamEvent of(String node, DataValue dv) {
        UpstreamTime source = time(dv.getSourceTime());
        UpstreamStatus status = status(dv.getStatusCode());
        Variant v = dv.getValue();
        if (v == null || v.isNull()) {
            return new UpstreamNoValue(node, source, status);
        }
        Object o = v.getValue();
        if (o.getClass().isArray()) {
            String t = v.getDataType().map(Enum::name).orElse("Variant");
            return new UpstreamUnsupported(node, t + "[]", source, status);
        }
        if (o instanceof String s) {
            return UpstreamValue.ofString(node, s, source, status);
        }
        ScalarType type = null;
        String token = null;
        if (o instanceof Boolean b) {
            type = ScalarType.BOOLEAN;
            token = b.toString();
        } else if (o instanceof Byte b) {
            type = ScalarType.SBYTE;
            token = b.toString();
        } else if (o instanceof UByte b) {
            type = ScalarType.BYTE;
            token = b.toString();
        } else if (o instanceof Short s) {
            type = ScalarType.INT16;
            token = s.toString();
        } else if (o instanceof UShort s) {
            type = ScalarType.UINT16;
            token = s.toString();
        } else if (o instanceof Integer i) {
            type = ScalarType.INT32;
            token = i.toString();
        } else if (o instanceof UInteger i) {
            type = ScalarType.UINT32;
            token = i.toString();
        } else if (o instanceof Long l) {
            type = ScalarType.INT64;
            token = l.toString();
        } else if (o instanceof ULong l) {
            type = ScalarType.UINT64;
            token = l.toBigInteger().toString();
        } else if (o instanceof Float f) {
            type = ScalarType.FLOAT;
            token = f.toString(); // shortest decimal that converts back to the same float
        } else if (o instanceof Double d) {
            type = ScalarType.DOUBLE;
            token = d.toString();
        } else if (o instanceof DateTime t) {
            type = ScalarType.DATE_TIME;
            token = new UpstreamTime(t.getUtcTime()).text();
        }
        if (type == null) {
            String t = v.getDataType().map(Enum::name).orElse(OpcUaDataType.ExtensionObject.name());
            return new UpstreamUnsupported(node, t, source, status);
        }
        return UpstreamValue.of(node, type, token, source, status);
    }

    /**
     * A source timestamp, or null for none.
     *
     * @param t Milo's time, or null
     * @return the time
     */
    public static UpstreamTime time(DateTime t) {
        return t == null ? null : new UpstreamTime(t.getUtcTime());
    }

    /**
     * A status code as the texts write it (Good for a missing one, as OPC UA encodes Good by omission).
     *
     * @param s the status code, or null
     * @return its name, or its number if it has none, and its info bits
     */
    public static UpstreamStatus status(StatusCode s) {
        long code = s == null ? 0 : s.getValue();
        long high = code & 0xffff0000L;
        int info = (int) (code & 0xffff);
        return StatusCodes.lookup(high)
                .map(a -> a[0])
                .filter(n -> n.matches("[A-Za-z][A-Za-z0-9_]{0,63}"))
                .map(n -> new UpstreamStatus(n, info))
                .orElseGet(() -> UpstreamStatus.unnamed(code));
    }
}
