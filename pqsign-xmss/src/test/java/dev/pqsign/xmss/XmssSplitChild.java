package dev.pqsign.xmss;

import dev.pqsign.state.ChildJvm;
import dev.pqsign.state.FileStateStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Main class run in child JVMs by {@link XmssSplitCrashTest}: {@code STATE OUTDIR N PAUSE_MS} splits
 * STATE into N parts ({@code OUTDIR/part-i.state}); prints {@code SHRUNK} when the original has been
 * shrunk and sleeps PAUSE_MS before each part file is created, so that a kill can land between the
 * durable steps; prints {@code DONE}.
 */
public final class XmssSplitChild {
    private XmssSplitChild() {}

    /** Starts a child running this class. */
    static ChildJvm start(Path workDir, String... args) throws IOException {
        return ChildJvm.start(workDir, 96, XmssSplitChild.class, args);
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        // Our stdout carries only the protocol lines; anything else printed by library code goes to stderr.
        System.setOut(System.err);
        Path state = Path.of(args[0]);
        Path outDir = Path.of(args[1]);
        int parts = Integer.parseInt(args[2]);
        long pauseMillis = Long.parseLong(args[3]);
        FilePartWriter files = new FilePartWriter(outDir) {
            @Override
            public void create(int part, byte[] encodedState) throws IOException {
                if (part == 2) {
                    out.println("SHRUNK");
                    out.flush();
                }
                try {
                    Thread.sleep(pauseMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                super.create(part, encodedState);
            }
        };
        try (FileStateStore store = FileStateStore.open(state, Duration.ofSeconds(60))) {
            XmssKeySplit.split(store, parts, files);
        }
        out.println("DONE");
        out.flush();
    }
}
