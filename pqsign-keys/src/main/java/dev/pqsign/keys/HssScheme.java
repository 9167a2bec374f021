package dev.pqsign.keys;

import dev.pqsign.lms.HssParameterSet;
import java.util.Objects;

/**
 * LMS / HSS (RFC 8554, SP 800-208) with one hierarchy; a plain LMS key is the one-level hierarchy
 * (named like its tree, e.g. {@code LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4}).
 */
public final class HssScheme implements SignatureScheme {
    private final HssParameterSet parameterSet;

    private HssScheme(HssParameterSet parameterSet) {
        this.parameterSet = Objects.requireNonNull(parameterSet, "parameterSet");
    }

    /**
     * The scheme of {@code parameterSet}.
     *
     * @param parameterSet the hierarchy
     * @return the scheme; equal to every other scheme of the same hierarchy
     */
    public static HssScheme of(HssParameterSet parameterSet) {
        return new HssScheme(parameterSet);
    }

    @Override
    public HssParameterSet parameterSet() {
        return parameterSet;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HssScheme x && x.parameterSet.equals(parameterSet);
    }

    @Override
    public int hashCode() {
        return parameterSet.hashCode();
    }

    @Override
    public String toString() {
        return parameterSet.setName();
    }
}
