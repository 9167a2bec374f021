package dev.pqsign.keys;

import dev.pqsign.core.Hex;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.Optional;

/**
 * Child JVM of {@link RolloverCrashTest}: a sensor's signing loop with automatic key rollover. Each
 * signature goes to {@code out/G-I-RUN.sig} (generation, index, run), each handover it publishes to
 * {@code out/handover-G.pqho}, and a line to stdout. With a step name as {@code pauseAt} it stops
 * right after that rollover or compaction step (printing {@code PAUSED}) so the parent can SIGKILL
 * it there.
 *
 * <p>Arguments: key directory, output directory, run number, total signatures wanted, pause step or
 * {@code none}, and optionally the signatures left at which to hand over (default
 * {@link KeyRollover#DEFAULT_SWITCH_AT}).
 */
public final class RolloverChild {
    private RolloverChild() {}

    /** The message signed under generation {@code g}, index {@code i}. */
    static byte[] message(long g, long i) {
        return ("reading " + g + " " + i).getBytes(StandardCharsets.US_ASCII);
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path out = Path.of(args[1]);
        int run = Integer.parseInt(args[2]);
        int wanted = Integer.parseInt(args[3]);
        String pauseAt = args[4];
        long switchAt = args.length > 5 ? Long.parseLong(args[5]) : KeyRollover.DEFAULT_SWITCH_AT;
        PrintStream o = System.out;
        SensorKeyDirectory.Observer observer = new SensorKeyDirectory.Observer() {
            @Override
            public void stepDone(RolloverStep step, long generation) {
                done(step.name(), generation);
            }

            @Override
            public void compactionStepDone(CompactionStep step, long generation) {
                done(step.name(), generation);
            }

            private void done(String step, long generation) {
                synchronized (o) {
                    o.println("STEP " + step + " " + generation);
                    o.flush();
                    if (step.equals(pauseAt)) {
                        o.println("PAUSED");
                        o.flush();
                        try {
                            Thread.sleep(Long.MAX_VALUE);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }
            }
        };
        try (SensorKeyDirectory keys = SensorKeyDirectory.open(
                        dir,
                        SensorKeyDirectory.Options.defaults()
                                .withObserver(observer)
                                .withSigner(
                                        XmssStatefulSigner.Options.defaults().withBatch(4)));
                KeyRollover rollover = KeyRollover.of(keys, 0, switchAt, Clock.systemUTC())) {
            // A restarted sensor publishes its latest handover again: an operator may have missed it.
            Optional<SignedKeyHandover> latest = keys.latestHandover();
            if (latest.isPresent()) {
                publish(out, latest.get());
            }
            int done = countSignatures(out);
            while (done < wanted) {
                // As a sensor does: a handover under way is completed and published before the next signature.
                Optional<SignedKeyHandover> h = rollover.beforeSignature();
                if (h.isPresent()) {
                    publish(out, h.get());
                    synchronized (o) {
                        o.println("HANDOVER " + h.get().statement().sequence() + " "
                                + Hex.encode(h.get().statement().newKeyId()));
                        o.flush();
                    }
                }
                long g = keys.generation();
                var s = keys.currentSigner().signIndexed(i -> message(g, i));
                Path tmp = out.resolve(".tmp-" + run);
                Files.write(tmp, s.signature());
                Files.move(tmp, out.resolve(g + "-" + s.index() + "-" + run + ".sig"), StandardCopyOption.ATOMIC_MOVE);
                synchronized (o) {
                    o.println("SIG " + g + " " + s.index());
                    o.flush();
                }
                done++;
                rollover.afterSignature();
            }
        }
        o.println("DONE");
        o.flush();
    }

    private static void publish(Path out, SignedKeyHandover h) throws Exception {
        Path tmp = out.resolve(".tmp-h");
        Files.write(tmp, h.encode());
        Files.move(
                tmp,
                out.resolve("handover-" + h.statement().sequence() + ".pqho"),
                StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
    }

    private static int countSignatures(Path out) throws Exception {
        try (var s = Files.list(out)) {
            return (int)
                    s.filter(p -> p.getFileName().toString().endsWith(".sig")).count();
        }
    }
}
