package dev.pqsign.console.internal;

import dev.pqsign.console.KeyStatus;
import dev.pqsign.telemetry.LatencyRecord;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.VerdictEvent;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The console's Prometheus metrics, in a registry of its own (so that two consoles in one JVM, as in
 * tests, do not share counters). Label values are sensor names, verdict words, reason names and
 * connection states: nothing secret.
 */
public final class ConsoleMetrics {

    /** Histogram bucket upper bounds in seconds (100 µs .. 10 s). */
    static final double[] LATENCY_BOUNDS = {
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
    };

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    private final Counter readings;
    private final Counter gaps;
    private final Counter missing;
    private final Counter skipped;
    private final Counter alarms;
    private final Counter handovers;
    private final Gauge keyRemaining;
    private final Gauge keySecondsLeft;
    private final Gauge keyNextReady;
    private final Gauge keyGeneration;
    private final Gauge connection;
    private final Histogram sign;
    private final Histogram transfer;
    private final Histogram verify;
    private final Histogram endToEnd;
    private final Map<String, String> connectionStates = new HashMap<>();
    private final java.util.Set<String> known = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Gauge lastReading;
    private final Gauge silentGauge;

    public ConsoleMetrics() {
        readings = counter(
                "pqsign_readings_total",
                "Readings received, by sensor, verdict word and reason",
                "sensor",
                "verdict",
                "reason");
        gaps = counter("pqsign_gaps_total", "Gaps (runs of missing indices) noticed, by sensor", "sensor");
        missing = counter(
                "pqsign_missing_readings_total", "Indices that never arrived (sum of gap sizes), by sensor", "sensor");
        skipped = counter(
                "pqsign_skipped_indices_total",
                "Indices the sensor said (signed) it burned without publishing, by sensor",
                "sensor");
        alarms = counter("pqsign_alarms_total", "Alarms raised, by sensor", "sensor");
        handovers = counter("pqsign_handovers_total", "Key handovers, by sensor", "sensor");
        keyRemaining = gauge(
                "pqsign_key_remaining_signatures", "Signatures the sensor's current key can still make", "sensor");
        keySecondsLeft = gauge(
                "pqsign_key_seconds_left", "Estimated seconds until the sensor's current key is exhausted", "sensor");
        keyNextReady =
                gauge("pqsign_key_next_ready", "1 if the sensor's next key is ready for a handover, else 0", "sensor");
        keyGeneration = gauge("pqsign_key_generation", "The sensor's current key generation", "sensor");
        connection = gauge(
                "pqsign_connection_state",
                "1 for the sensor's current connection state, 0 for states it has left",
                "sensor",
                "state");
        lastReading = gauge(
                "pqsign_last_reading_timestamp_seconds",
                "When the operator last received a reading of the sensor (UNIX time; age = time() - value)",
                "sensor");
        silentGauge = gauge(
                "pqsign_sensor_silent",
                "1 while the sensor has sent no reading for longer than the operator's --silent-after",
                "sensor");
        sign = histogram("pqsign_sign_seconds", "Sensor time to reserve an index and sign");
        transfer = histogram("pqsign_transfer_seconds", "Publication to receipt at the operator");
        verify = histogram("pqsign_verify_seconds", "Operator verification including the durable replay update");
        endToEnd = histogram("pqsign_end_to_end_seconds", "Start of signing to verdict");
        JvmMetrics.builder().register(registry);
    }

    private Counter counter(String name, String help, String... labels) {
        return Counter.builder().name(name).help(help).labelNames(labels).register(registry);
    }

    private Gauge gauge(String name, String help, String... labels) {
        return Gauge.builder().name(name).help(help).labelNames(labels).register(registry);
    }

    private Histogram histogram(String name, String help) {
        return Histogram.builder()
                .name(name)
                .help(help)
                .labelNames("sensor")
                .classicOnly()
                .classicUpperBounds(LATENCY_BOUNDS)
                .register(registry);
    }

    public void verdict(VerdictEvent e, LatencyRecord l) {
        verdict(e, l, true);
    }

    /** As above; a value read from the sensor's history ({@code live} false) is counted but not timed. */
    public void verdict(VerdictEvent e, LatencyRecord l, boolean live) {
        Verdict v = e.verdict();
        seen(e.sensor());
        if (v.reason() == Verdict.Reason.GAP) {
            gaps.labelValues(e.sensor()).inc();
            missing.labelValues(e.sensor()).inc(e.gap().size());
            return;
        }
        if (v.reason() == Verdict.Reason.SKIPPED) {
            skipped.labelValues(e.sensor()).inc(e.gap().size());
            return;
        }
        // the reason says why a reading was rejected; for the others it would only repeat the verdict
        readings.labelValues(
                        e.sensor(),
                        e.verdictWord(),
                        e.verdictWord().equals("REJECTED") ? v.reason().name() : "")
                .inc();
        if (e.record() != null) {
            lastReading.labelValues(e.sensor()).set(e.receivedAt().toEpochMilli() / 1000.0);
        }
        if (!live) {
            return;
        }
        if (l != null) {
            sign.labelValues(e.sensor()).observe(l.signNanos() / 1e9);
            transfer.labelValues(e.sensor()).observe(l.transferNanos() / 1e9);
            verify.labelValues(e.sensor()).observe(l.verifyNanos() / 1e9);
            endToEnd.labelValues(e.sensor()).observe(l.endToEndNanos() / 1e9);
        } else if (e.record() != null) {
            sign.labelValues(e.sensor()).observe(e.record().signNanos() / 1e9);
            Long wall = e.wallLatencyNanos();
            if (wall != null && wall >= 0) {
                endToEnd.labelValues(e.sensor()).observe(wall / 1e9);
            }
        }
    }

    /**
     * The first sign of a sensor: its counters exist from then on at 0, so a query for gaps or
     * alarms sees the sensor before its first one.
     */
    private void seen(String sensor) {
        if (known.add(sensor)) {
            gaps.labelValues(sensor);
            missing.labelValues(sensor);
            skipped.labelValues(sensor);
            alarms.labelValues(sensor);
            handovers.labelValues(sensor);
            silentGauge.labelValues(sensor).set(0);
        }
    }

    /**
     * The operator's signature checks, read at each scrape: {@code pqsign_signature_checks_total}
     * and {@code pqsign_signature_check_cpu_seconds_total} (set once; beside the JVM's
     * {@code process_cpu_seconds_total} they say what share of the process's CPU time the checks take).
     */
    public void signatureCost(LongSupplier checks, LongSupplier cpuNanos) {
        CounterWithCallback.builder()
                .name("pqsign_signature_checks_total")
                .help("Signatures the operator checked (valid or not)")
                .callback(c -> c.call((double) checks.getAsLong()))
                .register(registry);
        CounterWithCallback.builder()
                .name("pqsign_signature_check_cpu_seconds_total")
                .help("CPU time of the operator's threads while they checked signatures")
                .callback(c -> c.call(cpuNanos.getAsLong() / 1e9))
                .register(registry);
    }

    public void silence(String sensor, boolean silent) {
        seen(sensor);
        silentGauge.labelValues(sensor).set(silent ? 1 : 0);
    }

    public synchronized void connectionState(String sensor, String state) {
        seen(sensor);
        String old = connectionStates.put(sensor, state);
        if (old != null && !old.equals(state)) {
            connection.labelValues(sensor, old).set(0);
        }
        connection.labelValues(sensor, state).set(1);
    }

    public void keyStatus(KeyStatus s) {
        seen(s.sensor());
        if (s.remaining() >= 0) {
            keyRemaining.labelValues(s.sensor()).set((double) s.remaining());
        }
        if (s.secondsLeft() != null) {
            keySecondsLeft.labelValues(s.sensor()).set(s.secondsLeft());
        }
        keyNextReady.labelValues(s.sensor()).set(s.nextKeyReady() ? 1 : 0);
    }

    public void alarm(String sensor) {
        seen(sensor);
        alarms.labelValues(sensor).inc();
    }

    public void handover(String sensor, long generation) {
        seen(sensor);
        handovers.labelValues(sensor).inc();
        keyGeneration.labelValues(sensor).set((double) generation);
    }

    /** The text exposition format's content type. */
    public String contentType() {
        return writer.getContentType();
    }

    /** All metrics in the Prometheus text format. */
    public byte[] scrape() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16384);
        writer.write(out, registry.scrape());
        return out.toByteArray();
    }
}
