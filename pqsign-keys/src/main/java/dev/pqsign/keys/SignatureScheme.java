package dev.pqsign.keys;

import dev.pqsign.core.ParameterSet;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.xmss.XmssParameterSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A signature scheme pqsign signs with, together with its parameter set: XMSS / XMSS^MT
 * ({@link XmssScheme}), LMS / HSS ({@link HssScheme}) or HAETAE ({@link HaetaeScheme}). Sealed so that code choosing by scheme can
 * handle every case.
 */
public sealed interface SignatureScheme permits XmssScheme, HssScheme, HaetaeScheme {

    /**
     * The parameter set, e.g. {@code XMSSMT-SHA2_20/4_256} or {@code HAETAE-2}.
     *
     * @return the parameter set
     */
    ParameterSet parameterSet();

    /**
     * The parameter set's canonical name.
     *
     * @return e.g. {@code XMSSMT-SHA2_10/2_256}
     */
    default String name() {
        return parameterSet().setName();
    }

    /**
     * The name of a directory that holds files of this set: {@link #directoryName(String)} of its name.
     *
     * @return the name with {@code /} replaced, safe as one path element
     */
    default String directoryName() {
        return directoryName(name());
    }

    /**
     * The one directory name pqsign gives files of the parameter set (or test set) named {@code setName}:
     * a {@code /} becomes {@code -} ({@code XMSSMT-SHA2_10/2_256} becomes {@code XMSSMT-SHA2_10-2_256})
     * and any other character outside {@code [A-Za-z0-9._-]} becomes {@code _}.
     *
     * @param setName a set name, as written by {@link #name()}
     * @return the directory name
     */
    static String directoryName(String setName) {
        return setName.replace('/', '-').replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /**
     * The set named {@code name} (XMSS / XMSS^MT, LMS / HSS as {@link HssParameterSet#byName} reads
     * it, or HAETAE; case and surrounding blanks do not matter, HAETAE also by its KAT name or OID),
     * if pqsign supports it.
     *
     * @param name the set's name
     * @return the scheme, or empty if no supported set has that name
     */
    static Optional<SignatureScheme> byName(String name) {
        Optional<XmssParameterSet> xmss = XmssParameterSet.byName(name);
        if (xmss.isPresent()) {
            return Optional.of(XmssScheme.of(xmss.get()));
        }
        Optional<HssParameterSet> hss = HssParameterSet.byName(name.strip());
        if (hss.isPresent()) {
            return Optional.of(HssScheme.of(hss.get()));
        }
        try {
            return Optional.of(HaetaeScheme.of(HaetaeParameterSet.fromName(name)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Every supported set with a fixed list: the XMSS / XMSS^MT sets, then the HAETAE sets. LMS /
     * HSS hierarchies are composed from the LMS trees ({@link HssParameterSet}) and not listed here.
     *
     * @return an unmodifiable list
     */
    static List<SignatureScheme> all() {
        List<SignatureScheme> out = new ArrayList<>();
        for (XmssParameterSet p : XmssParameterSet.all()) {
            out.add(XmssScheme.of(p));
        }
        for (HaetaeParameterSet h : HaetaeParameterSet.values()) {
            out.add(HaetaeScheme.of(h));
        }
        return List.copyOf(out);
    }
}
