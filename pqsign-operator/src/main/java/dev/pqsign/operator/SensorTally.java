package dev.pqsign.operator;

import dev.pqsign.telemetry.LatencySeries;
import dev.pqsign.telemetry.Verdict;
import java.util.EnumMap;
import java.util.Map;

/** What the summary and the live table show for one sensor (guarded by its {@link VerdictReport}). */
final class SensorTally {
    final String url;
    final Map<Verdict.Reason, Long> counts = new EnumMap<>(Verdict.Reason.class);
    final LatencySeries endToEndMs = new LatencySeries();
    long readings;
    long missing;
    long skipped;
    long lastIndex = -1;
    String lastReading = "-";
    double lastLatencyMs = Double.NaN;
    String state = "connecting";
    boolean everConnected;
    boolean toldWaiting;
    /** {@link System#nanoTime()} of the last reading, 0 before the first. */
    long lastReadingNanos;

    boolean silent;

    SensorTally(String url) {
        this.url = url;
        for (Verdict.Reason r : Verdict.Reason.values()) {
            counts.put(r, 0L);
        }
    }

    /** Verdicts that count against the run: everything but accepted, duplicate, handover and skipped. */
    long alarms() {
        long n = 0;
        for (Map.Entry<Verdict.Reason, Long> e : counts.entrySet()) {
            if (isAlarm(e.getKey())) {
                n += e.getValue();
            }
        }
        return n;
    }

    static boolean isAlarm(Verdict.Reason r) {
        return r != Verdict.Reason.ACCEPTED
                && r != Verdict.Reason.DUPLICATE
                && r != Verdict.Reason.HANDOVER
                && r != Verdict.Reason.SKIPPED;
    }
}
