package dev.pqsign.state;

import java.io.IOException;
import java.io.PrintStream;
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
    private StoreChild() {}

    /** Starts a child running this class; a counter store needs little heap, so 64 MB. */
    static ChildJvm start(Path workDir, String... args) throws IOException {
        return ChildJvm.start(workDir, 64, StoreChild.class, args);
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
                        ChildJvm.signalReadyAndAwaitGo(out, Path.of(args[3]), Duration.ofSeconds(60));
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
                case "hold" -> ChildJvm.holdLock(out, store, Long.parseLong(args[2]), Counter::increment);
                default -> throw new IllegalArgumentException("unknown mode " + mode);
            }
        }
    }
}
