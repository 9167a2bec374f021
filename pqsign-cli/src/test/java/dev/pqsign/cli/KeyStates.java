package dev.pqsign.cli;

import dev.pqsign.state.FileStateStore;
import dev.pqsign.xmss.XmssKeySplit;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Moves a test key's state file to the end of its range through the public API only (the library
 * has no way to set an index): {@link XmssKeySplit} gives every remaining index but one away to parts
 * that are thrown away, so the file keeps exactly one index.
 */
final class KeyStates {
    private KeyStates() {}

    /** Leaves {@code state} with its very last index as the only one left. */
    static void keepOnlyLastIndex(Path state) throws IOException {
        int parts;
        try (FileStateStore store = FileStateStore.open(state)) {
            parts = Math.toIntExact(remaining(store));
        }
        keepLastPart(state, parts);
    }

    /**
     * Leaves {@code state} with only the last of {@code parts} equal ranges of its remaining indices
     * (so a key directory's key runs out, and rolls over, after that many signatures).
     */
    static void keepLastPart(Path state, int parts) throws IOException {
        try (FileStateStore store = FileStateStore.open(state)) {
            byte[][] last = new byte[1][];
            XmssKeySplit.split(store, parts, new XmssKeySplit.PartWriter() {
                @Override
                public void checkAbsent(int part) {}

                @Override
                public void create(int part, byte[] encodedState) {
                    if (part == parts) {
                        last[0] = encodedState.clone();
                    }
                }

                @Override
                public String describe(int part) {
                    return "discarded part " + part;
                }
            });
            // the file held the first range after the split; the last part's range takes its place
            store.update(current -> last[0]);
        }
    }

    /** Uses up every index of {@code state}: keeps one, then signs with it. */
    static void exhaust(Path state) throws IOException {
        keepOnlyLastIndex(state);
        try (FileStateStore store = FileStateStore.open(state);
                XmssStatefulSigner signer = XmssStatefulSigner.open(store)) {
            signer.sign(new byte[] {1});
        }
    }

    private static long remaining(FileStateStore store) throws IOException {
        XmssKeyState s = XmssKeyState.decode(store.read());
        try {
            return s.remaining();
        } finally {
            s.key().destroy();
        }
    }
}
