package dev.pqsign.state;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Main class run in child JVMs by the multi-process and crash tests. Every value is printed only
 * after {@code update} has returned, i.e. after the store claims it is durable.
 *
 * <ul>
 *   <li>{@code count FILE N [GOFILE]}: N increments, printing each value obtained; with GOFILE, first
 *       prints {@code READY} and waits until GOFILE exists.
 *   <li>{@code forever FILE}: increments until killed.
 *   <li>{@code hold FILE MILLIS}: one increment whose update function prints {@code HOLDING} and then
 *       sleeps MILLIS while the lock is held.
 * </ul>
 */
public final class StoreChild {
    private StoreChild() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        String mode = args[0];
        Path file = Path.of(args[1]);
        try (FileStateStore store = FileStateStore.open(file, Duration.ofSeconds(60))) {
            switch (mode) {
                case "count" -> {
                    int n = Integer.parseInt(args[2]);
                    if (args.length > 3) {
                        // Start line: report readiness, then wait for the parent's go file so that
                        // all children really run their updates at the same time.
                        Path go = Path.of(args[3]);
                        out.println("READY");
                        out.flush();
                        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                        while (!Files.exists(go)) {
                            if (System.nanoTime() > deadline) {
                                throw new IllegalStateException("no go file " + go + " after 60 s");
                            }
                            Thread.sleep(1);
                        }
                    }
                    for (int i = 0; i < n; i++) {
                        out.println(Counter.decode(store.update(Counter::increment)));
                        out.flush();
                    }
                }
                case "forever" -> {
                    while (true) {
                        out.println(Counter.decode(store.update(Counter::increment)));
                        out.flush();
                    }
                }
                case "hold" -> {
                    long millis = Long.parseLong(args[2]);
                    store.update(cur -> {
                        out.println("HOLDING");
                        out.flush();
                        try {
                            Thread.sleep(millis);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return Counter.increment(cur);
                    });
                    out.println("DONE");
                    out.flush();
                }
                default -> throw new IllegalArgumentException("unknown mode " + mode);
            }
        }
    }
}
