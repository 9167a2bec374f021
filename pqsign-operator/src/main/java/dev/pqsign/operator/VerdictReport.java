package dev.pqsign.operator;

import dev.pqsign.console.ConsoleServer;
import dev.pqsign.core.Hex;
import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.opcua.gateway.GatewayServer;
import dev.pqsign.telemetry.LatencySeries;
import dev.pqsign.telemetry.ReadingText;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.VerdictEvent;
import dev.pqsign.telemetry.VerdictJsonl;
import dev.pqsign.telemetry.operator.ConnectionState;
import dev.pqsign.telemetry.operator.Observation;
import dev.pqsign.telemetry.operator.SensorVerification;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Where an operator run's verdicts go: a text line each (or a live table on a terminal), JSON Lines,
 * the live console, the OPC UA gateway, and the per-sensor tallies behind the summary and the exit code. Every verdict
 * is written before the reading is marked reported in the accepted records, so a kill at any point
 * can at worst repeat a line, never lose one. Thread-safe (one lock for all outputs).
 */
final class VerdictReport {
    private final OperatorSettings settings;
    private final PrintWriter out;
    private final PrintWriter err;
    private final VerdictJsonl json;
    private final ConsoleServer console;
    private final GatewayServer gateway;
    private final Map<String, SensorVerification> sensors;
    private final CountDownLatch stop;
    private final boolean textLines;
    private final Map<String, SensorTally> tallies = new LinkedHashMap<>();
    private final LatencySeries verifyMs = new LatencySeries();
    private long seen;
    private boolean closed;
    private final long startedNanos = System.nanoTime();
    private String outputError;

    VerdictReport(
            OperatorSettings settings,
            PrintWriter out,
            PrintWriter err,
            VerdictJsonl json,
            ConsoleServer console,
            GatewayServer gateway,
            Map<String, SensorVerification> sensors,
            CountDownLatch stop) {
        this.settings = settings;
        this.out = out;
        this.err = err;
        this.json = json;
        this.console = console;
        this.gateway = gateway;
        this.sensors = sensors;
        this.stop = stop;
        this.textLines = !settings.jsonlToStandardOutput;
        for (SensorTarget t : settings.sensors) {
            tallies.put(t.name(), new SensorTally(t.url()));
        }
    }

    /** Where status lines go: standard output, or standard error when standard output carries JSON. */
    PrintWriter info() {
        return textLines ? out : err;
    }

    /** Whether verdict lines are written (not JSON to standard output, not a live table). */
    private boolean verdictLines() {
        return textLines && !settings.liveTable;
    }

    /** Whether an output failed and was reported (the run then stops with exit 1). */
    synchronized boolean outputFailed() {
        return outputError != null;
    }

    /** Notes a failed output; the run then ends with exit 1. */
    private void failed(String why) {
        outputError = why;
        stop.countDown();
    }

    /** A write of a key-status event to JSON Lines; false if it failed (the run then stops). */
    synchronized boolean write(dev.pqsign.telemetry.KeyStatusEvent e) {
        if (json == null) {
            return true;
        }
        try {
            json.write(e);
            return true;
        } catch (IOException ex) {
            failed(jsonlError(ex));
            return false;
        }
    }

    private String jsonlError(IOException e) {
        return "--jsonl: cannot write " + settings.jsonlFile + ": " + e.getMessage();
    }

    /** One status line, wherever status lines go. */
    synchronized void status(String line) {
        if (closed && !textLines) {
            return;
        }
        PrintWriter w = info();
        w.println(line);
        w.flush();
    }

    /** A line of the verdict stream's text form (status of a key), unless the table is drawn instead. */
    synchronized void keyLine(String line) {
        if (textLines) {
            out.println(line);
            out.flush();
        }
    }

    /** Every observation of every sensor, in each sensor's publication order. */
    synchronized void observe(Observation o) {
        if (closed || stop.getCount() == 0 || (settings.readings > 0 && seen >= settings.readings)) {
            return;
        }
        SensorTally st = tallies.get(o.sensor());
        Verdict v = o.verdict();
        VerdictEvent event = o.event();
        if (gateway != null) {
            gateway.observe(o); // before the reading is marked reported: a kill in between repeats it, never loses it
        }
        toConsole(o, event);
        if (json != null) {
            try {
                json.write(event);
            } catch (IOException e) {
                // Every verdict must reach its consumer: a stream that cannot be written ends the run.
                failed(jsonlError(e));
                return;
            }
            // The JSON line is the record consumers rely on: mark the reading reported right after
            // it, before anything else, so a kill after the line leaves the least chance of the
            // verdict being written once more after a restart.
            markReported(o);
        }
        // Counted once written: the summary adds up to what the outputs hold.
        st.counts.merge(v.reason(), 1L, Long::sum);
        if (o.handover() != null && o.gap() == null) {
            if (textLines) {
                out.printf("%sHANDOVER %s %s%n", prefix(o), o.handover().outcome(), ReadingText.printable(v.detail()));
                out.flush();
            }
            return;
        }
        if (o.gap() != null) {
            range(o, st, v);
            return;
        }
        reading(o, st, v, event);
    }

    private void toConsole(Observation o, VerdictEvent event) {
        if (console == null) {
            return;
        }
        if (o.handover() != null && o.gap() == null && o.handover().outcome() == HandoverOutcome.FOLLOWED) {
            console.handover(
                    o.sensor(),
                    o.handover().generation(),
                    Hex.encode(o.handover().handover().statement().newKeyId()));
        } else if (o.handover() != null
                && o.gap() == null
                && o.handover().outcome().isAlarm()) {
            console.alarm(o.sensor(), o.verdict().detail());
        } else if (o.handover() == null || o.gap() != null) {
            console.verdict(event, o.latency(), o.live());
        }
    }

    /** A gap, or a range a signed skip notice accounts for. */
    private void range(Observation o, SensorTally st, Verdict v) {
        boolean skipped = v.reason() == Verdict.Reason.SKIPPED;
        if (skipped) {
            st.skipped += o.gap().size();
        } else {
            st.missing += o.gap().size();
        }
        if (verdictLines()) {
            if (skipped) {
                out.printf(
                        "%sSKIPPED from=%d to=%d (burned by the sensor without publishing)%n",
                        prefix(o), o.gap().from(), o.gap().to());
            } else {
                out.printf(
                        "%sGAP from=%d to=%d missing=%d%n",
                        prefix(o), o.gap().from(), o.gap().to(), o.gap().size());
            }
            out.flush();
        }
    }

    private void reading(Observation o, SensorTally st, Verdict v, VerdictEvent event) {
        seen++;
        st.readings++;
        st.lastReadingNanos = System.nanoTime();
        if (st.silent) {
            st.silent = false;
            String line = "RESUMED " + o.sensor() + ": readings arrive again";
            if (console != null) {
                console.silence(o.sensor(), false, "readings arrive again");
            }
            if (!settings.liveTable) {
                info().println(line);
                info().flush();
            }
        }
        String e2e = "-";
        String verify = "-";
        if (o.latency() != null) {
            // Verifying costs the same whether the reading came live or from the history.
            verifyMs.add(o.latency().verifyNanos());
            verify = Milliseconds.threeDecimals(o.latency().verifyNanos()) + "ms";
        }
        Long wall = event.wallLatencyNanos();
        // A backfilled reading's latency is how long it waited in the sensor's history: not counted.
        if (wall != null && v.accepted() && o.latency() != null && o.live()) {
            st.endToEndMs.add(wall);
            st.lastLatencyMs = wall / 1e6;
            e2e = Milliseconds.threeDecimals(wall) + "ms";
        }
        if (v.accepted() && o.reading() != null) {
            st.lastIndex = v.index();
            st.lastReading = ReadingText.printable(o.reading().reading());
        }
        if (verdictLines()) {
            String word = event.verdictWord().equals("REJECTED") ? "REJECTED(" + v.reason() + ")" : event.verdictWord();
            String text = v.accepted() && o.reading() != null ? o.reading().reading() : v.detail();
            // Appended, not printf: one verdict line per reading, and a format string is parsed per call.
            out.append(prefix(o))
                    .append(word)
                    .append(" index=")
                    .append(Long.toString(v.index()))
                    .append(" verify=")
                    .append(verify)
                    .append(" e2e=")
                    .append(e2e)
                    .append(' ')
                    .append(ReadingText.printable(text))
                    .append(System.lineSeparator());
            out.flush();
            if (out.checkError()) {
                failed("cannot write the verdict lines to standard output");
                return;
            }
        }
        if (json == null) {
            markReported(o);
        }
        if (settings.readings > 0 && seen >= settings.readings) {
            stop.countDown();
        }
    }

    /** Notes that an accepted reading's verdict was written out (not offered again after a restart). */
    private void markReported(Observation o) {
        if (o.verdict().accepted() && o.record() != null && o.isReading()) {
            try {
                sensors.get(o.sensor()).verifier().reported(o.record());
            } catch (IOException e) {
                // only means the verdict may be written once more after a restart
            }
        }
    }

    /** With several sensors every line starts with the sensor's name. */
    private String prefix(Observation o) {
        return settings.named ? o.sensor() + " " : "";
    }

    /**
     * Raises (once per silence) a sensor that has sent no reading for longer than the settings'
     * threshold: a {@code SILENT} line, a console feed entry and the {@code pqsign_sensor_silent} metric.
     */
    synchronized void checkSilence() {
        if (closed || settings.silentAfter.isZero()) {
            return;
        }
        long now = System.nanoTime();
        for (Map.Entry<String, SensorTally> e : tallies.entrySet()) {
            SensorTally st = e.getValue();
            long since = st.lastReadingNanos == 0 ? startedNanos : st.lastReadingNanos;
            long quietSeconds = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(now - since);
            if (!st.silent && now - since > settings.silentAfter.toNanos()) {
                st.silent = true;
                String detail = "no reading for " + quietSeconds + " s (connection: " + st.state + ")";
                if (console != null) {
                    console.silence(e.getKey(), true, detail);
                }
                if (!settings.liveTable) {
                    info().println("SILENT " + e.getKey() + ": " + detail);
                    info().flush();
                }
            }
        }
    }

    /** Records a connection change and prints it (the first connection with its URL). */
    synchronized void connectionChanged(ConnectionState state) {
        SensorTally st = tallies.get(state.sensor());
        if (st == null) {
            return;
        }
        boolean wasConnected = st.everConnected;
        boolean first = state.connected() && !wasConnected;
        st.state = state.status().label();
        if (gateway != null) {
            gateway.connectionChanged(state);
        }
        if (console != null) {
            console.connectionState(state.sensor(), state.status().label(), state.since());
        }
        st.everConnected |= state.connected();
        if (settings.liveTable || closed) {
            return;
        }
        PrintWriter w = info();
        switch (state.status()) {
            case CONNECTED -> {
                w.printf("CONNECTED %s%n", state.sensor());
                if (first) {
                    w.printf("subscribed to %s%n", st.url);
                }
            }
            case RECONNECTING -> w.printf("DISCONNECTED %s%n", state.sensor());
            case DOWN -> {
                if (!wasConnected && !st.toldWaiting) {
                    w.printf("waiting for the sensor at %s ...%n", st.url);
                    st.toldWaiting = true;
                }
                w.printf("DOWN %s: %s (retrying)%n", state.sensor(), ReadingText.printable(state.detail()));
            }
            default -> {
                // CONNECTING and CLOSED are not news
            }
        }
        w.flush();
    }

    /** The live table on a terminal: one row per sensor, redrawn every second. */
    synchronized void printTable() {
        StringBuilder sb = new StringBuilder("\033[H\033[2J");
        sb.append(String.format(
                Locale.ROOT,
                "%-20s %-12s %10s %9s %9s %7s %6s %11s  %s%n",
                "sensor",
                "state",
                "index",
                "accepted",
                "rejected",
                "gaps",
                "dups",
                "latency ms",
                "latest value"));
        for (Map.Entry<String, SensorTally> e : tallies.entrySet()) {
            SensorTally st = e.getValue();
            long rejected = st.alarms() - st.counts.get(Verdict.Reason.GAP);
            sb.append(String.format(
                    Locale.ROOT,
                    "%-20s %-12s %10s %9d %9d %7d %6d %11s  %s%n",
                    e.getKey(),
                    st.state,
                    st.lastIndex < 0 ? "-" : Long.toString(st.lastIndex),
                    st.counts.get(Verdict.Reason.ACCEPTED),
                    rejected,
                    st.missing,
                    st.counts.get(Verdict.Reason.DUPLICATE),
                    Double.isNaN(st.lastLatencyMs) ? "-" : String.format(Locale.ROOT, "%.1f", st.lastLatencyMs),
                    st.lastReading));
        }
        out.print(sb);
        out.flush();
    }

    /** Whether any verdict line was counted (for a summary after an error). */
    synchronized boolean sawReadings() {
        return seen > 0;
    }

    /** No more observations are written (the operator is closing). */
    synchronized void close() {
        closed = true;
    }

    /**
     * Prints the totals (to standard error when standard output carries the JSON stream) and returns
     * the exit code: 1 if anything was rejected, missing or reused, or an output failed; 0 otherwise.
     *
     * @param keyAlarms key alarms raised during the run (they count against it)
     * @param keyLine the line about key warnings and alarms, or null if there were none
     */
    synchronized int summary(long keyAlarms, String keyLine) {
        long alarms = keyAlarms;
        PrintWriter target = info();
        for (Map.Entry<String, SensorTally> e : tallies.entrySet()) {
            SensorTally st = e.getValue();
            alarms += st.alarms();
            target.println(summaryLine(e.getKey(), st));
        }
        if (keyLine != null) {
            target.println(keyLine);
        }
        String cost = signatureCostLine();
        if (cost != null) {
            target.println(cost);
        }
        target.flush();
        if (outputError != null) {
            err.println("pqsign: " + outputError);
            err.flush();
            return OperatorFailure.FAILED;
        }
        return alarms > 0 ? OperatorFailure.FAILED : 0;
    }

    /**
     * The signatures checked over all sensors and their CPU time (what the run could not do without;
     * the rest of the process's CPU time is the operator's own), or null if none was checked.
     */
    private String signatureCostLine() {
        long checks = 0;
        long nanos = 0;
        for (SensorVerification v : sensors.values()) {
            checks += v.verifier().signatureCost().checks();
            nanos += v.verifier().signatureCost().cpuNanos();
        }
        if (checks == 0) {
            return null;
        }
        return "signatures: " + checks + " checked, CPU " + Milliseconds.threeDecimals(nanos / checks) + " ms each";
    }

    private String summaryLine(String name, SensorTally st) {
        StringBuilder sb = new StringBuilder();
        sb.append(settings.named ? "summary " + name + ": " : "summary: ");
        sb.append(st.readings).append(" readings");
        for (Map.Entry<Verdict.Reason, Long> c : st.counts.entrySet()) {
            sb.append(", ").append(c.getKey()).append(' ').append(c.getValue());
        }
        sb.append(" (").append(st.missing).append(" missing)");
        if (st.endToEndMs.count() > 0) {
            var t = st.endToEndMs.summary();
            sb.append(String.format(
                    Locale.ROOT, "; e2e (wall clocks) p50 %.3f ms p99 %.3f ms max %.3f ms", t.p50(), t.p99(), t.max()));
        }
        if (!settings.named) {
            if (verifyMs.count() > 0) {
                sb.append(String.format(
                        Locale.ROOT, "; verify p50 %.3f ms", verifyMs.summary().p50()));
            }
            sb.append("; sensor ").append(name);
        }
        return sb.toString();
    }
}
