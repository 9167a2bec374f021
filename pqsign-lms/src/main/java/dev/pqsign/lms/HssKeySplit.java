package dev.pqsign.lms;

import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.StateStore;
import dev.pqsign.core.internal.KeySplitter;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * Splits the remaining indices of a stateful HSS key on disk into disjoint ranges, each a complete key
 * state, so that one key can sign on several devices without ever copying a state file.
 *
 * <p>Order of the durable writes (each step is crash-safe on its own):
 * <ol>
 * <li>Under the original's store lock: re-read the original, compute the ranges from what is on
 * disk now, check that no part's destination exists yet, and durably rewrite the original with its
 * end index lowered to the end of the first range. From this moment no signer of the original
 * (in this or any other process: each re-reads the file at every reservation) can use an index of
 * parts 2..N.</li>
 * <li>Only then create parts 2..N, each create-only and durable.</li>
 * </ol>
 * A crash between the steps, or a failed part write, loses the indices of the unwritten parts (they
 * belong to no file any more) but can never make two files own one index. Writing the parts first
 * would be unsafe: a crash before the shrink would leave their indices in two files.
 *
 * <pre>{@code
 * try (FileStateStore store = FileStateStore.open(Path.of("key.state"))) {
 *     List<HssKeySplit.Part> parts = HssKeySplit.split(store, 3, new HssKeySplit.PartWriter() {
 *         public void checkAbsent(int part) throws IOException { ... }
 *         public void create(int part, byte[] state) throws IOException {
 *             DurableFiles.createAtomically(dir.resolve("part-" + part + ".state"), state);
 *         }
 *         public String describe(int part) { return dir.resolve("part-" + part + ".state").toString(); }
 *     });
 * }
 * }</pre>
 */
public final class HssKeySplit {
    /** The scheme-independent procedure (shared with the other stateful schemes), with this class's types. */
    private static final KeySplitter<HssKeyState, Part> SPLITTER =
            new KeySplitter<>(HssKeyState.FORMAT, Part::new, PartWriteException::new);

    private HssKeySplit() {}

    /** Destination of the new parts 2..N (part 1 is the original, shrunk in place). */
    public interface PartWriter {
        /**
         * Throws if part {@code part} cannot be created because its destination already exists. Called
         * for every new part under the original's lock, before the original is changed.
         *
         * @param part the part's number, 2..N
         * @throws IOException if the destination exists or cannot be checked; the split then writes nothing
         */
        void checkAbsent(int part) throws IOException;

        /**
         * Durably creates part {@code part} (2..N) with the encoded state; must fail rather than
         * overwrite an existing file. The array is wiped after the call.
         *
         * @param part the part's number, 2..N
         * @param encodedState the part's complete key state, in the {@link HssKeyState} encoding
         * @throws IOException if the part was not durably created; the split reports it as a
         *     {@link PartWriteException}
         */
        void create(int part, byte[] encodedState) throws IOException;

        /**
         * Where part {@code part} goes, for messages (never secret).
         *
         * @param part the part's number, 2..N
         * @return e.g. the destination file's path
         */
        String describe(int part);
    }

    /**
     * The original was shrunk durably, but a new part could not be created. The indices of that part
     * and of every later one belong to no key file any more: they are lost, never reusable.
     */
    public static final class PartWriteException extends IOException {
        private static final long serialVersionUID = 1L;

        PartWriteException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * One range of a split key.
     *
     * @param number 1 for the original, 2..N for the new files
     * @param nextIndex first index of the range
     * @param endIndex end of the range (exclusive)
     * @param location the original's {@link StateStore#describe()} or {@link PartWriter#describe(int)}
     */
    public record Part(int number, long nextIndex, long endIndex, String location) {
        /**
         * Number of indices in the range.
         *
         * @return endIndex - nextIndex
         */
        public long size() {
            return endIndex - nextIndex;
        }
    }

    /**
     * Splits the key in {@code original} into {@code parts} ranges (see {@link HssKeyState#split}):
     * shrinks the original durably under its lock, then creates parts 2..N through {@code writer}.
     *
     * @param original the store of the key to split; it keeps part 1
     * @param parts the number of ranges N, at least 2
     * @param writer creates parts 2..N
     * @return the ranges, part 1 (the original) first
     * @throws IllegalArgumentException if {@code parts < 2} or more than the remaining indices;
     *     nothing is written
     * @throws KeyExhaustedException if the key has no index left; nothing is written
     * @throws KeyFormatException if the original is not a valid key state; nothing is written
     * @throws PartWriteException if a part could not be created after the shrink (the message says
     *     which indices are lost; none can ever be used twice)
     * @throws IOException if a destination exists or the original cannot be locked, read or written;
     *     nothing was given away
     */
    public static List<Part> split(StateStore original, int parts, PartWriter writer) throws IOException {
        Objects.requireNonNull(original, "original");
        Objects.requireNonNull(writer, "writer");
        return SPLITTER.split(original, parts, writer::checkAbsent, writer::create, writer::describe);
    }
}
