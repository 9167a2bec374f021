package dev.pqsign.keys;

import dev.pqsign.xmss.XmssParameterSet;
import java.util.Objects;

/** XMSS or XMSS^MT (RFC 8391, SP 800-208) with one parameter set. */
public final class XmssScheme implements SignatureScheme {
    private final XmssParameterSet parameterSet;

    private XmssScheme(XmssParameterSet parameterSet) {
        this.parameterSet = Objects.requireNonNull(parameterSet, "parameterSet");
    }

    /**
     * The scheme of {@code parameterSet}.
     *
     * @param parameterSet the parameter set
     * @return the scheme; equal to every other scheme of the same set
     */
    public static XmssScheme of(XmssParameterSet parameterSet) {
        return new XmssScheme(parameterSet);
    }

    @Override
    public XmssParameterSet parameterSet() {
        return parameterSet;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof XmssScheme x && x.parameterSet == parameterSet;
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
