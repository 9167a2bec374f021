package dev.pqsign.core.internal;

import dev.pqsign.core.KeyExhaustedException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The range {@code [next, end)} of one-time indices a stateful key file may still use: the part of
 * an XMSS or HSS key state that says which indices are burned. Immutable.
 */
public final class IndexRange {
    private final long next;
    private final long end;

    private IndexRange(long next, long end) {
        this.next = next;
        this.end = end;
    }

    /**
     * Checks and makes a range.
     *
     * @param next the lowest index not yet burned
     * @param end the end of the range (exclusive)
     * @param max the key's number of indices
     * @return the range
     * @throws IllegalArgumentException unless {@code 0 <= next <= end <= max}
     */
    public static IndexRange of(long next, long end, long max) {
        if (next < 0 || end < next || end > max) {
            throw new IllegalArgumentException(
                    "index range [" + next + ", " + end + ") is not within [0, " + max + "]");
        }
        return new IndexRange(next, end);
    }

    /**
     * The lowest index not yet burned.
     *
     * @return the next index
     */
    public long next() {
        return next;
    }

    /**
     * The end of the range (exclusive).
     *
     * @return the end index
     */
    public long end() {
        return end;
    }

    /**
     * Indices left in the range.
     *
     * @return end - next
     */
    public long remaining() {
        return end - next;
    }

    /**
     * Divides the range into {@code parts} disjoint, contiguous, non-empty ranges in index order,
     * sizes differing by at most one (the first {@code remaining % parts} are one longer). The first
     * is what the key file shrinks to, the others are the ranges of new key files.
     *
     * @param parts the number of ranges
     * @return the ranges, lowest first
     * @throws KeyExhaustedException if no index is left to split
     * @throws IllegalArgumentException if {@code parts < 2} or {@code parts > remaining()}
     */
    public List<IndexRange> split(int parts) {
        long remaining = remaining();
        if (remaining == 0) {
            throw new KeyExhaustedException("cannot split an exhausted key: all indices up to " + end + " are used");
        }
        if (parts < 2) {
            throw new IllegalArgumentException("a split needs at least 2 parts, got " + parts);
        }
        if (parts > remaining) {
            throw new IllegalArgumentException("cannot split " + remaining + " remaining indices [" + next + ", " + end
                    + ") into " + parts + " non-empty parts");
        }
        long base = remaining / parts;
        long extra = remaining % parts;
        List<IndexRange> out = new ArrayList<>(parts);
        long start = next;
        for (int i = 0; i < parts; i++) {
            long size = base + (i < extra ? 1 : 0);
            out.add(new IndexRange(start, start + size));
            start += size;
        }
        if (start != end) {
            throw new IllegalStateException("split ranges end at " + start + ", expected " + end);
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IndexRange r && r.next == next && r.end == end;
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(next) + Long.hashCode(end);
    }

    @Override
    public String toString() {
        return "[" + next + ", " + end + ")";
    }
}
