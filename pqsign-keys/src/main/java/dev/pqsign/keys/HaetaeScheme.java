package dev.pqsign.keys;

import dev.pqsign.haetae.HaetaeParameterSet;
import java.util.Objects;

/** HAETAE with one parameter set (HAETAE-2, -3 or -5). */
public final class HaetaeScheme implements SignatureScheme {
    private final HaetaeParameterSet parameterSet;

    private HaetaeScheme(HaetaeParameterSet parameterSet) {
        this.parameterSet = Objects.requireNonNull(parameterSet, "parameterSet");
    }

    /**
     * The scheme of {@code parameterSet}.
     *
     * @param parameterSet the parameter set
     * @return the scheme; equal to every other scheme of the same set
     */
    public static HaetaeScheme of(HaetaeParameterSet parameterSet) {
        return new HaetaeScheme(parameterSet);
    }

    @Override
    public HaetaeParameterSet parameterSet() {
        return parameterSet;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HaetaeScheme x && x.parameterSet == parameterSet;
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
