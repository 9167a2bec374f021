package dev.pqsign.lms;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One LMS tree: an {@link LmsType} and the {@link LmOtsType} of its leaves, named as in RFC 8554
 * and SP 800-208, e.g. {@code LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4}.
 *
 * <p>Closed set: only the 80 pairs whose two types use the same hash function and output length
 * exist (SP 800-208 allows no other pairs; a tree mixing them would hash its leaves with one
 * function and its nodes with another). Every value comes from {@link #all()}; equal pairs are the
 * same object.
 */
public final class LmsParameterSet {
    private static final List<LmsParameterSet> ALL;

    static {
        List<LmsParameterSet> all = new ArrayList<>();
        for (LmsType lms : LmsType.values()) {
            for (LmOtsType ots : LmOtsType.values()) {
                if (ots.hash() == lms.hash()) {
                    all.add(new LmsParameterSet(lms, ots));
                }
            }
        }
        ALL = Collections.unmodifiableList(all);
    }

    private final LmsType lms;
    private final LmOtsType ots;
    private final String name;

    private LmsParameterSet(LmsType lms, LmOtsType ots) {
        this.lms = lms;
        this.ots = ots;
        this.name = lms.name() + "/" + ots.name();
    }

    /**
     * Every pair of the closed set, in type-code order.
     *
     * @return the 80 parameter sets
     */
    public static List<LmsParameterSet> all() {
        return ALL;
    }

    /**
     * The pair of {@code lms} and {@code ots}.
     *
     * @param lms the tree type
     * @param ots the one-time signature type
     * @return the parameter set
     * @throws IllegalArgumentException if the two types use different hash functions
     */
    public static LmsParameterSet of(LmsType lms, LmOtsType ots) {
        Objects.requireNonNull(lms, "lms");
        Objects.requireNonNull(ots, "ots");
        return find(lms, ots)
                .orElseThrow(() -> new IllegalArgumentException(lms.name() + " hashes with "
                        + lms.hash().displayName() + " but " + ots.name() + " with "
                        + ots.hash().displayName()
                        + "; an LMS tree uses one hash function (SP 800-208)"));
    }

    /**
     * The pair of {@code lms} and {@code ots}, if it exists.
     *
     * @param lms the tree type
     * @param ots the one-time signature type
     * @return the parameter set, or empty if the two use different hash functions
     */
    public static Optional<LmsParameterSet> find(LmsType lms, LmOtsType ots) {
        if (lms.hash() != ots.hash()) {
            return Optional.empty();
        }
        int perLms = 4;
        return Optional.of(ALL.get(lms.ordinal() * perLms + (ots.ordinal() % perLms)));
    }

    /**
     * The set named {@code name}, e.g. {@code LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4}
     * (case-insensitive).
     *
     * @param name the set's name
     * @return the parameter set, or empty if no set has that name
     */
    public static Optional<LmsParameterSet> byName(String name) {
        for (LmsParameterSet s : ALL) {
            if (s.name.equalsIgnoreCase(name.strip())) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /**
     * The tree type.
     *
     * @return the LMS type
     */
    public LmsType lmsType() {
        return lms;
    }

    /**
     * The leaves' one-time signature type.
     *
     * @return the LM-OTS type
     */
    public LmOtsType otsType() {
        return ots;
    }

    /**
     * The hash function both types use.
     *
     * @return the hash family
     */
    public LmsHash hash() {
        return lms.hash();
    }

    /**
     * Bytes per hash output.
     *
     * @return n = m
     */
    public int n() {
        return lms.m();
    }

    /**
     * Height of the tree.
     *
     * @return h
     */
    public int h() {
        return lms.h();
    }

    /**
     * One-time keys in the tree.
     *
     * @return 2^h
     */
    public long leaves() {
        return 1L << lms.h();
    }

    /**
     * Length of an LMS signature (RFC 8554 section 5.4.1): q, the LM-OTS signature, the LMS type
     * and the authentication path.
     *
     * @return 8 + n(p + 1) + 4 + m·h
     */
    public int signatureBytes() {
        return 4 + ots.signatureBytes() + 4 + lms.m() * lms.h();
    }

    /**
     * Length of an LMS public key: both type codes, I and the root.
     *
     * @return 24 + m
     */
    public int publicKeyBytes() {
        return 24 + lms.m();
    }

    /**
     * The name, {@code <LMS type>/<LM-OTS type>}.
     *
     * @return e.g. {@code LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4}
     */
    public String setName() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }
}
