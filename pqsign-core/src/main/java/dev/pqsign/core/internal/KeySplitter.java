package dev.pqsign.core.internal;

import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Secrets;
import dev.pqsign.core.StateStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * Splits the remaining indices of a stateful key on disk into disjoint ranges, each a complete key
 * state, for every scheme the same way (the public {@code XmssKeySplit} and {@code HssKeySplit} are
 * this with their own types):
 * <ol>
 * <li>Under the original's store lock: re-read the original, compute the ranges from what is on disk
 * now, check that no part's destination exists yet, and durably rewrite the original with its end
 * index lowered to the end of the first range.</li>
 * <li>Only then create parts 2..N, each create-only and durable.</li>
 * </ol>
 * A crash between the steps, or a failed part write, loses the indices of the unwritten parts but
 * can never make two files own one index.
 *
 * @param <S> the scheme's key state
 * @param <P> the scheme's description of one part
 */
public final class KeySplitter<S, P> {
    private final KeyStateFormat<S> format;
    private final PartFactory<P> parts;
    private final PartFailure failure;

    /**
     * A splitter for one scheme.
     *
     * @param format the scheme's state format
     * @param parts makes the scheme's description of a part
     * @param failure makes the scheme's exception for a part that could not be written
     */
    public KeySplitter(KeyStateFormat<S> format, PartFactory<P> parts, PartFailure failure) {
        this.format = Objects.requireNonNull(format, "format");
        this.parts = Objects.requireNonNull(parts, "parts");
        this.failure = Objects.requireNonNull(failure, "failure");
    }

    /** Makes the scheme's description of one range of a split key. */
    @FunctionalInterface
    public interface PartFactory<P> {
        /**
         * Describes a part.
         *
         * @param number 1 for the original, 2..N for the new files
         * @param nextIndex first index of the range
         * @param endIndex end of the range (exclusive)
         * @param location where the part is stored (never secret)
         * @return the part
         */
        P part(int number, long nextIndex, long endIndex, String location);
    }

    /** Makes the scheme's exception for a part not written after the original was shrunk. */
    @FunctionalInterface
    public interface PartFailure {
        /**
         * Makes the exception.
         *
         * @param message which part failed and which indices are lost
         * @param cause the write's failure
         * @return the exception to throw
         */
        IOException exception(String message, Throwable cause);
    }

    /** Throws if a part's destination exists ({@code PartWriter.checkAbsent}). */
    @FunctionalInterface
    public interface AbsenceCheck {
        /**
         * Checks one destination.
         *
         * @param part the part's number, 2..N
         * @throws IOException if the destination exists or cannot be checked
         */
        void checkAbsent(int part) throws IOException;
    }

    /** Durably creates a part ({@code PartWriter.create}). */
    @FunctionalInterface
    public interface PartCreation {
        /**
         * Creates one part; must fail rather than overwrite.
         *
         * @param part the part's number, 2..N
         * @param encodedState the part's complete key state (wiped after the call)
         * @throws IOException if the part was not durably created
         */
        void create(int part, byte[] encodedState) throws IOException;
    }

    /**
     * Splits the key in {@code original} into {@code count} ranges: shrinks the original durably under
     * its lock, then creates parts 2..N.
     *
     * @param original the store of the key to split; it keeps part 1
     * @param count the number of ranges N, at least 2
     * @param check throws if a new part's destination exists; called for each under the original's lock
     * @param create durably creates a new part
     * @param describe where a new part goes, for messages
     * @return the parts, the original first
     * @throws IllegalArgumentException if {@code count < 2} or more than the remaining indices; nothing is written
     * @throws KeyExhaustedException if the key has no index left; nothing is written
     * @throws KeyFormatException if the original is not a valid key state; nothing is written
     * @throws IOException if a destination exists or the original cannot be locked, read or written
     *     (nothing was given away), or, made by the {@link PartFailure}, if a part could not be created
     *     after the shrink
     */
    public List<P> split(
            StateStore original, int count, AbsenceCheck check, PartCreation create, IntFunction<String> describe)
            throws IOException {
        if (count < 2) {
            throw new IllegalArgumentException("a split needs at least 2 parts, got " + count);
        }
        List<S> split = shrink(original, count, check);
        List<P> result = new ArrayList<>(count);
        IndexRange first = format.range(split.get(0));
        result.add(parts.part(1, first.next(), first.end(), original.describe()));
        try {
            for (int i = 2; i <= count; i++) {
                IndexRange r = format.range(split.get(i - 1));
                byte[] bytes = format.encode(split.get(i - 1));
                try {
                    create.create(i, bytes);
                } catch (IOException | RuntimeException e) {
                    throw failure.exception(
                            "key " + original.describe() + " was shrunk to [" + first.next() + ", " + first.end()
                                    + "), but part " + i + " (" + describe.apply(i) + ") could not be written: "
                                    + e.getMessage() + "; indices [" + r.next() + ", "
                                    + format.range(split.get(count - 1)).end() + ") of parts " + i + ".." + count
                                    + " no longer belong to the original and parts after " + i
                                    + " were not created, so those indices are lost (never usable twice)",
                            e);
                } finally {
                    Secrets.wipe(bytes);
                }
                result.add(parts.part(i, r.next(), r.end(), describe.apply(i)));
            }
        } finally {
            format.destroy(split.get(0));
        }
        return Collections.unmodifiableList(result);
    }

    /** Step 1: under the original's lock, the ranges from what is on disk and the durable shrink. */
    private List<S> shrink(StateStore original, int count, AbsenceCheck check) throws IOException {
        List<List<S>> holder = new ArrayList<>(1);
        original.update(current -> {
            S state;
            try {
                state = format.decode(current);
            } catch (KeyFormatException e) {
                throw new KeyFormatException(original.describe() + ": " + e.getMessage(), e);
            } finally {
                Secrets.wipe(current);
            }
            try {
                List<S> split;
                try {
                    split = format.split(state, count);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(original.describe() + ": " + e.getMessage(), e);
                } catch (KeyExhaustedException e) {
                    throw new KeyExhaustedException(original.describe() + ": " + e.getMessage());
                }
                for (int i = 2; i <= count; i++) {
                    check.checkAbsent(i);
                }
                holder.add(split);
                return format.encode(split.get(0));
            } catch (IOException | RuntimeException e) {
                format.destroy(state);
                throw e;
            }
        });
        return holder.get(0);
    }
}
