package dev.pqsign.opcua.internal;

import dev.pqsign.opcua.SensorNodes;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.ReadingMessage;
import dev.pqsign.telemetry.SignedReading;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;

/**
 * What the operator takes from one Read of a sensor's {@link SensorNodes#SNAPSHOT} nodes: every
 * value is sensor-controlled, so each is checked for presence, type and size here, and nothing in
 * it can make decoding throw. Either a reading to verify, or the reason it cannot be one.
 */
public final class Publication {
    private final Long sequence;
    private final String problem;
    private final long index;
    private final SignedReading reading;
    private final KeyId keyId;
    private final String setName;
    private final Double signMs;
    private final Long signStart;
    private final Long published;

    private Publication(
            Long sequence,
            String problem,
            long index,
            SignedReading reading,
            KeyId keyId,
            String setName,
            Double signMs,
            Long signStart,
            Long published) {
        this.sequence = sequence;
        this.problem = problem;
        this.index = index;
        this.reading = reading;
        this.keyId = keyId;
        this.setName = setName;
        this.signMs = signMs;
        this.signStart = signStart;
        this.published = published;
    }

    private static Publication malformed(Long sequence, long index, String problem) {
        return new Publication(sequence, problem, index, null, null, null, null, null, null);
    }

    /** Decodes the values of one Read, in {@link SensorNodes#SNAPSHOT} order. Never throws. */
    public static Publication decode(List<DataValue> v) {
        if (v == null || v.size() != SensorNodes.SNAPSHOT.size()) {
            return malformed(null, -1, "Read returned " + (v == null ? 0 : v.size()) + " values");
        }
        Long seq = as(v.get(8), Long.class);
        if (seq == null) {
            return malformed(null, -1, "no publication sequence");
        }
        String raw = as(v.get(0), String.class);
        ByteString sig = as(v.get(1), ByteString.class);
        UInteger index = as(v.get(2), UInteger.class);
        String setName = as(v.get(3), String.class);
        ByteString keyIdBytes = as(v.get(4), ByteString.class);
        long idx = index == null ? -1 : index.longValue();
        if (raw == null
                || sig == null
                || sig.bytes() == null
                || index == null
                || setName == null
                || keyIdBytes == null
                || keyIdBytes.bytes() == null) {
            return malformed(seq, idx, "missing value or wrong type: " + describe(v));
        }
        if (keyIdBytes.length() != KeyId.BYTES) {
            return malformed(seq, idx, "key id has " + keyIdBytes.length() + " bytes");
        }
        if (raw.length() > ReadingMessage.MAX_READING_BYTES
                || raw.getBytes(StandardCharsets.UTF_8).length > ReadingMessage.MAX_READING_BYTES) {
            return malformed(seq, idx, "reading longer than " + ReadingMessage.MAX_READING_BYTES + " bytes");
        }
        return new Publication(
                seq,
                null,
                idx,
                new SignedReading(raw, idx, sig.bytesOrEmpty()),
                KeyId.of(keyIdBytes.bytesOrEmpty()),
                setName,
                as(v.get(5), Double.class),
                as(v.get(6), Long.class),
                as(v.get(7), Long.class));
    }

    /** The publication sequence number, or {@code null} if the Read did not carry one. */
    public Long sequence() {
        return sequence;
    }

    /** Why this is not a reading to verify, or {@code null} if it is one. */
    public String problem() {
        return problem;
    }

    /** The published signature index, or -1 if there was none. */
    public long index() {
        return index;
    }

    /** The reading to verify ({@code null} if {@link #problem()} is set). */
    public SignedReading reading() {
        return reading;
    }

    /** The key id the sensor claims ({@code null} if {@link #problem()} is set). */
    public KeyId keyId() {
        return keyId;
    }

    /** The parameter-set name the sensor publishes ({@code null} if {@link #problem()} is set). */
    public String setName() {
        return setName;
    }

    /** The sensor's signing time in milliseconds, if published as a Double. */
    public Double signMs() {
        return signMs;
    }

    /** The sensor's nanoTime when signing started, if published as an Int64. */
    public Long signStart() {
        return signStart;
    }

    /** The sensor's nanoTime when it published, if published as an Int64. */
    public Long published() {
        return published;
    }

    private static <T> T as(DataValue dv, Class<T> type) {
        if (dv == null || dv.statusCode() == null || !dv.statusCode().isGood() || dv.value() == null) {
            return null;
        }
        Object o = dv.value().value();
        return type.isInstance(o) ? type.cast(o) : null;
    }

    private static String describe(List<DataValue> v) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            DataValue dv = v.get(i);
            Object o = dv == null || dv.value() == null ? null : dv.value().value();
            sb.append(SensorNodes.SNAPSHOT.get(i))
                    .append('=')
                    .append(o == null ? "null" : o.getClass().getSimpleName())
                    .append(i < 2 ? ", " : "");
        }
        return sb.toString();
    }
}
