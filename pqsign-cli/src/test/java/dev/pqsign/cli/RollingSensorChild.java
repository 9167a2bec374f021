package dev.pqsign.cli;

import dev.pqsign.keys.KeyRollover;
import dev.pqsign.keys.SensorKeyDirectory;
import dev.pqsign.opcua.SensorServer;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.ReadingHistory;
import dev.pqsign.telemetry.RollingSensorKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * Child process of {@link RolloverKillProcessTest}: the sensor composed as {@code pqsign sensor}
 * composes it (a {@link SensorServer} with a history file, rolling its key over with
 * {@link RollingSensorKey} over the key directory), publishing readings as fast as it can. Prints
 * {@code STARTED generation}, then {@code SIG generation keyid index} after each publication (its
 * record is in the history by then), {@code DONE} after the last one, and then serves its history
 * until it is killed. With a rollover step as {@code pauseAt} it stops right after that step,
 * printing {@code PAUSED}, so the parent can SIGKILL it exactly there.
 *
 * <p>Arguments: key directory, data directory, port, run number, pause step or {@code none},
 * readings to publish (0: until killed), and optionally the signatures left at which the key hands
 * over (default {@link KeyRollover#DEFAULT_SWITCH_AT}; larger rolls over sooner).
 */
public final class RollingSensorChild {
    private RollingSensorChild() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path data = Path.of(args[1]);
        int port = Integer.parseInt(args[2]);
        String run = args[3];
        String pauseAt = args[4];
        long wanted = Long.parseLong(args[5]);
        long switchAt = args.length > 6 ? Long.parseLong(args[6]) : KeyRollover.DEFAULT_SWITCH_AT;
        PrintStream o = System.out;
        Files.createDirectories(data);
        SensorKeyDirectory.Observer observer = (step, generation) -> {
            synchronized (o) {
                o.println("STEP " + step + " " + generation);
                if (step.name().equals(pauseAt)) {
                    o.println("PAUSED");
                    o.flush();
                    try {
                        Thread.sleep(Long.MAX_VALUE);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                o.flush();
            }
        };
        SensorKeyDirectory keys = SensorKeyDirectory.open(
                dir,
                SensorKeyDirectory.Options.defaults()
                        .withObserver(observer)
                        .withSigner(XmssStatefulSigner.Options.defaults().withBatch(4)));
        KeyRollover rollover = KeyRollover.of(keys, 0, switchAt, Clock.systemUTC());
        try (RollingSensorKey rolling = new RollingSensorKey(keys, rollover);
                ReadingHistory history = ReadingHistory.open(
                        data.resolve("history.pqhl"), 100_000, Duration.ofDays(1), Clock.systemUTC());
                SensorServer server = SensorServer.start(
                        new SensorServer.Config("crash", data, "127.0.0.1", port, TransportSecurity.NONE),
                        rolling.current(),
                        history)) {
            server.rollWith(rolling);
            synchronized (o) {
                o.println("STARTED " + rolling.status().generation());
                o.flush();
            }
            for (long n = 0; wanted == 0 || n < wanted; n++) {
                long generation = rolling.status().generation();
                SensorServer.Publication p = server.publish("run " + run + " reading " + n);
                synchronized (o) {
                    o.println("SIG " + generation + " " + p.record().keyId().hex() + " "
                            + p.reading().index());
                    o.flush();
                }
            }
            synchronized (o) {
                o.println("DONE");
                o.flush();
            }
            // Serve the history until the parent has seen the operator catch up and kills us.
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
