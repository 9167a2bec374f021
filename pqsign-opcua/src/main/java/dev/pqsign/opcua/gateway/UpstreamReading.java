package dev.pqsign.opcua.gateway;

import dev.pqsign.telemetry.upstream.UpstreamDown;
import dev.pqsign.telemetry.upstream.UpstreamEvent;
import dev.pqsign.telemetry.upstream.UpstreamNoValue;
import dev.pqsign.telemetry.upstream.UpstreamStatus;
import dev.pqsign.telemetry.upstream.UpstreamText;
import dev.pqsign.telemetry.upstream.UpstreamTime;
import dev.pqsign.telemetry.upstream.UpstreamValue;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;

/**
 * What a verified reading of a sensor signing an upstream OPC UA server ({@code pqsign sensor
 * --source opcua:}, texts {@code pqsign:upstream …}, docs/formats/signed-reading.md) means for the
 * served variables (docs/gateway.md, "Readings of an upstream OPC UA server"): a {@code value} fact
 * is a measurement (its number, its upstream source time, its upstream status); {@code novalue} and
 * {@code down} facts change only the status the last value is served with; the other facts change
 * nothing but the verdict variables.
 */
final class UpstreamReading {

    /** The status of the last value while the upstream is down (the sensor said so). */
    static final StatusCode UPSTREAM_DOWN = new StatusCode(StatusCodes.Uncertain_NoCommunicationLastUsableValue);

    private UpstreamReading() {}

    /**
     * The fact an upstream text states.
     *
     * @param text a verified reading text
     * @return the fact, or empty if the text is not a well-formed upstream text
     */
    static Optional<UpstreamEvent> fact(String text) {
        if (!UpstreamText.isUpstream(text)) {
            return Optional.empty();
        }
        try {
            return Optional.of(UpstreamText.parse(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // signed, but not a fact of this format: an ordinary reserved text
        }
    }

    /**
     * The values a {@code value} fact gives: its number (integer and floating-point types; a
     * non-finite Float or Double is none), its upstream source time (none for {@code -},
     * {@code min} and {@code max}) and its upstream status.
     *
     * @param v the fact
     * @return the values
     */
    static ReadingValues values(UpstreamValue v) {
        UpstreamTime t = v.source();
        Optional<Instant> time = t == null || t.isMin() || t.isMax() ? Optional.empty() : Optional.of(t.toInstant());
        return new ReadingValues(number(v), Map.of(), time, status(v.status()));
    }

    /** The value as a Double: exact for Float and for integers up to 2^53, the nearest double above. */
    static double number(UpstreamValue v) {
        String token = v.value();
        double d = switch (v.type()) {
            case SBYTE, BYTE, INT16, UINT16, INT32, UINT32, INT64 -> (double) Long.parseLong(token);
            case UINT64 -> new java.math.BigInteger(token).doubleValue();
            case FLOAT -> (double) Float.parseFloat(token);
            case DOUBLE -> Double.parseDouble(token);
            case BOOLEAN, STRING, DATE_TIME -> Double.NaN;
        };
        return Double.isFinite(d) ? d : Double.NaN;
    }

    /**
     * The status a fact gives the last value, if it changes it: a {@code value} or {@code novalue}
     * its upstream status, a {@code down} {@link #UPSTREAM_DOWN}.
     *
     * @param e an accepted upstream fact
     * @return the status, or empty if the fact leaves it
     */
    static Optional<StatusCode> statusAfter(UpstreamEvent e) {
        if (e instanceof UpstreamValue v) {
            return Optional.of(status(v.status()));
        }
        if (e instanceof UpstreamNoValue n) {
            return Optional.of(status(n.status()));
        }
        if (e instanceof UpstreamDown) {
            return Optional.of(UPSTREAM_DOWN);
        }
        return Optional.empty();
    }

    /**
     * The OPC UA status code of a status as the texts write it: the code of its name (or its
     * number), without the info bits; a name this server does not know stands for the generic code
     * of its severity (Good, Uncertain 0x40000000, Bad 0x80000000).
     *
     * @param s the status
     * @return the status code
     */
    static StatusCode status(UpstreamStatus s) {
        if (s.name().startsWith("0x")) {
            return new StatusCode(Long.parseLong(s.name().substring(2), 16));
        }
        Long code = Names.CODES.get(s.name());
        if (code != null) {
            return new StatusCode(code);
        }
        return new StatusCode(s.isGood() ? 0L : s.isUncertain() ? 0x40000000L : 0x80000000L);
    }

    /** Name → code of every status code this server knows (built once, on first use). */
    private static final class Names {
        static final Map<String, Long> CODES = build();

        private static Map<String, Long> build() {
            Map<String, Long> m = new HashMap<>();
            for (long high = 0; high <= 0xffff; high++) {
                long code = high << 16;
                StatusCodes.lookup(code).ifPresent(a -> m.putIfAbsent(a[0], code));
            }
            return m;
        }
    }
}
