package dev.pqsign.lms;

import dev.pqsign.core.ParameterSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An HSS hierarchy (RFC 8554 section 6): L = 1 … 8 LMS trees, top level first. The top tree signs
 * the public keys of the trees below it, the bottom tree signs messages; the key signs
 * 2^(h_0 + … + h_(L-1)) messages.
 *
 * <p>A one-level hierarchy is a plain LMS key in the HSS encoding that X.509 (RFC 9708, RFC 9802)
 * and the JDK use. Names: one level is named like its tree,
 * {@code LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4}; more levels join their trees' names with
 * {@code +}, top first, e.g.
 * {@code LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4+LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4}.
 *
 * <p>Immutable. Any hierarchy can be verified; {@link #isSignable()} says whether pqsign can make
 * keys for it.
 */
public final class HssParameterSet implements ParameterSet {
    /** The most levels RFC 8554 allows. */
    public static final int MAX_LEVELS = 8;

    /**
     * The largest total height (sum of the levels' heights) pqsign signs with: its index counter is
     * a 64-bit number in the key state.
     */
    public static final int MAX_SIGNABLE_HEIGHT = 60;

    private final LmsParameterSet[] levels;
    private final String name;
    private final int signatureBytes;
    private final int totalHeight;

    private HssParameterSet(LmsParameterSet[] levels) {
        this.levels = levels;
        StringBuilder sb = new StringBuilder();
        int sig = 4;
        int height = 0;
        for (int i = 0; i < levels.length; i++) {
            sb.append(i == 0 ? "" : "+").append(levels[i].setName());
            sig += levels[i].signatureBytes() + (i + 1 < levels.length ? levels[i + 1].publicKeyBytes() : 0);
            height += levels[i].h();
        }
        this.name = sb.toString();
        this.signatureBytes = sig;
        this.totalHeight = height;
    }

    /**
     * The hierarchy of {@code levels}, top first.
     *
     * @param levels 1 … 8 tree parameter sets
     * @return the hierarchy
     * @throws IllegalArgumentException if there are no levels or more than 8
     */
    public static HssParameterSet of(LmsParameterSet... levels) {
        Objects.requireNonNull(levels, "levels");
        if (levels.length < 1 || levels.length > MAX_LEVELS) {
            throw new IllegalArgumentException(
                    "an HSS hierarchy has 1 to " + MAX_LEVELS + " levels, got " + levels.length);
        }
        for (LmsParameterSet l : levels) {
            Objects.requireNonNull(l, "level");
        }
        return new HssParameterSet(levels.clone());
    }

    /**
     * The hierarchy of {@code levels}, top first.
     *
     * @param levels 1 … 8 tree parameter sets
     * @return the hierarchy
     * @throws IllegalArgumentException if there are no levels or more than 8
     */
    public static HssParameterSet of(List<LmsParameterSet> levels) {
        return of(levels.toArray(new LmsParameterSet[0]));
    }

    /**
     * {@code count} copies of one tree, e.g. {@code uniform(set, 2)} for a two-level hierarchy.
     *
     * @param level the tree parameter set of every level
     * @param count the number of levels, 1 … 8
     * @return the hierarchy
     * @throws IllegalArgumentException if {@code count} is not 1 … 8
     */
    public static HssParameterSet uniform(LmsParameterSet level, int count) {
        if (count < 1 || count > MAX_LEVELS) {
            throw new IllegalArgumentException("an HSS hierarchy has 1 to " + MAX_LEVELS + " levels, got " + count);
        }
        LmsParameterSet[] l = new LmsParameterSet[count];
        Arrays.fill(l, Objects.requireNonNull(level, "level"));
        return new HssParameterSet(l);
    }

    /**
     * Parses a name as {@link #setName()} writes it (case-insensitive; spaces around {@code +}
     * allowed).
     *
     * @param name e.g. {@code LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4+LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8}
     * @return the hierarchy, or empty if the name is not one
     */
    public static Optional<HssParameterSet> byName(String name) {
        String[] parts = name.split("\\+", -1);
        if (parts.length < 1 || parts.length > MAX_LEVELS) {
            return Optional.empty();
        }
        List<LmsParameterSet> levels = new ArrayList<>(parts.length);
        for (String part : parts) {
            Optional<LmsParameterSet> l = LmsParameterSet.byName(part);
            if (l.isEmpty()) {
                return Optional.empty();
            }
            levels.add(l.get());
        }
        return Optional.of(of(levels));
    }

    /**
     * Number of levels L.
     *
     * @return 1 … 8
     */
    public int levels() {
        return levels.length;
    }

    /**
     * The tree of level {@code i} (0 = top).
     *
     * @param i the level, 0 … L - 1
     * @return the level's tree parameter set
     */
    public LmsParameterSet level(int i) {
        return levels[i];
    }

    /**
     * The trees, top first.
     *
     * @return an unmodifiable list of L tree parameter sets
     */
    public List<LmsParameterSet> levelList() {
        return Collections.unmodifiableList(Arrays.asList(levels));
    }

    /**
     * The top tree, which the public key names.
     *
     * @return level 0
     */
    public LmsParameterSet top() {
        return levels[0];
    }

    /**
     * Sum of the levels' heights.
     *
     * @return h_0 + … + h_(L-1)
     */
    public int totalHeight() {
        return totalHeight;
    }

    /**
     * Signatures the key can make, if it is signable.
     *
     * @return 2^{@link #totalHeight()}
     * @throws IllegalStateException if the total height exceeds {@link #MAX_SIGNABLE_HEIGHT}
     */
    public long maxSignatures() {
        if (totalHeight > MAX_SIGNABLE_HEIGHT) {
            throw new IllegalStateException(name + " has 2^" + totalHeight + " one-time keys, more than a 64-bit "
                    + "counter holds; pqsign verifies such hierarchies but does not sign with them");
        }
        return 1L << totalHeight;
    }

    /**
     * Whether pqsign can make and use keys of this hierarchy: every level uses the same hash function
     * and output length (the lower levels' seeds are derived with it) and the total height is at most
     * {@link #MAX_SIGNABLE_HEIGHT}.
     *
     * @return {@code true} if {@link HssKeyGenerator} accepts the set
     */
    public boolean isSignable() {
        return whyNotSignable().isEmpty();
    }

    /** Empty if signable, else the reason for an error message. */
    Optional<String> whyNotSignable() {
        for (LmsParameterSet l : levels) {
            if (l.hash() != levels[0].hash()) {
                return Optional.of(name + " mixes hash functions ("
                        + levels[0].hash().displayName() + " and " + l.hash().displayName()
                        + "); pqsign derives every level's keys with one hash function");
            }
        }
        if (totalHeight > MAX_SIGNABLE_HEIGHT) {
            return Optional.of(name + " has a total height of " + totalHeight + ", more than the " + MAX_SIGNABLE_HEIGHT
                    + " a 64-bit index counter allows");
        }
        return Optional.empty();
    }

    /**
     * Signatures under the key of all levels below level {@code i}: one leaf of level {@code i}
     * covers this many consecutive indices.
     *
     * @param i the level, 0 … L - 1
     * @return 2^(h_(i+1) + … + h_(L-1)); 1 for the bottom level
     */
    long indicesPerLeaf(int i) {
        int shift = 0;
        for (int j = i + 1; j < levels.length; j++) {
            shift += levels[j].h();
        }
        return 1L << shift;
    }

    @Override
    public String setName() {
        return name;
    }

    /**
     * Length of an HSS signature (RFC 8554 section 6.2): Nspk, then per level above the bottom an
     * LMS signature and the next level's public key, then the bottom LMS signature.
     */
    @Override
    public int signatureBytes() {
        return signatureBytes;
    }

    /** Length of the HSS public key: L, then the top tree's LMS public key. */
    @Override
    public int publicKeyBytes() {
        return 4 + levels[0].publicKeyBytes();
    }

    @Override
    public boolean isStateful() {
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HssParameterSet other && Arrays.equals(levels, other.levels);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(levels);
    }

    @Override
    public String toString() {
        return name;
    }
}
