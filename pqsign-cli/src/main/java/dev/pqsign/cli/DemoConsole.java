package dev.pqsign.cli;

import dev.pqsign.console.ConsoleServer;
import dev.pqsign.demo.DemoObserver;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.operator.Observation;

/**
 * Shows a {@code pqsign demo} run on the live console ({@code --http}): every sensor of every set as
 * a card, every verdict (the injected tampered and replayed readings included) in the feed and the
 * metrics, each key's remaining signatures, and the latency histogram.
 */
final class DemoConsole implements DemoObserver {
    private final ConsoleServer console;

    DemoConsole(ConsoleServer console) {
        this.console = console;
    }

    @Override
    public void connectionState(String sensor, String state) {
        console.connectionState(sensor, state);
    }

    @Override
    public void keyState(String sensor, String parameterSet, KeyId keyId, long remaining) {
        // The demo's keys do not roll over: no time estimate, no next key.
        console.keyStatus(sensor, parameterSet, keyId.hex(), remaining, null, false);
    }

    @Override
    public void observation(Observation o) {
        if (o.handover() == null || o.gap() != null) {
            console.verdict(o.event(), o.latency());
        } else if (o.handover().outcome().isAlarm()) {
            console.alarm(o.sensor(), o.verdict().detail());
        }
    }
}
