package dev.pqsign.keys;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.xmss.XmssParameterSet;
import java.util.List;
import java.util.stream.Collectors;

/** A public key whose type code fits more than one XMSS / XMSS^MT set: the set must be named. */
public final class AmbiguousPublicKeyException extends KeyFormatException {
    private static final long serialVersionUID = 1L;

    private final transient List<XmssParameterSet> candidates;

    AmbiguousPublicKeyException(List<XmssParameterSet> candidates) {
        super("fits " + names(candidates) + " (same type code)");
        this.candidates = List.copyOf(candidates);
    }

    /**
     * The sets the key fits.
     *
     * @return two or more sets, unmodifiable
     */
    public List<XmssParameterSet> candidates() {
        return candidates;
    }

    /**
     * The candidates' names joined by {@code " and "}.
     *
     * @return e.g. {@code XMSSMT-SHA2_20/2_256 and XMSSMT-SHA2_20/4_256}
     */
    public String candidateNames() {
        return names(candidates);
    }

    private static String names(List<XmssParameterSet> sets) {
        return sets.stream().map(XmssParameterSet::setName).collect(Collectors.joining(" and "));
    }
}
