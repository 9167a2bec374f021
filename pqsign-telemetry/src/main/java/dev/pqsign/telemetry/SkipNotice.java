package dev.pqsign.telemetry;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A sensor's signed statement that it burned indices of its key without publishing them: a
 * signed reading whose text is {@code pqsign:skipped from=F to=T} (decimal, {@code F ≤ T}, both
 * below the statement's own index). A sensor signs one when it starts with a key whose next index
 * lies above the last index its history shows it published (indices reserved ahead before a
 * crash, or a key part whose range starts above 0); an operator then reports those indices as
 * {@link Verdict.Reason#SKIPPED}, not as a gap. Reading texts that start with {@value #RESERVED}
 * are reserved for such statements: a sensor refuses them from its source.
 *
 * @param from the first index skipped
 * @param to the last index skipped
 */
public record SkipNotice(long from, long to) {
    /** The prefix reserved for the sensor's own statements. */
    public static final String RESERVED = "pqsign:";

    private static final Pattern TEXT =
            Pattern.compile("pqsign:skipped from=(0|[1-9][0-9]{0,18}) to=(0|[1-9][0-9]{0,18})");

    /**
     * Checks the range.
     *
     * @param from the first index skipped
     * @param to the last index skipped
     * @throws IllegalArgumentException if {@code from} is negative or above {@code to}
     */
    public SkipNotice {
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("skipped range must be 0 <= from <= to, got " + from + ".." + to);
        }
    }

    /**
     * The reading text of this notice.
     *
     * @return {@code pqsign:skipped from=F to=T}
     */
    public String text() {
        return "pqsign:skipped from=" + from + " to=" + to;
    }

    /**
     * The notice a signed reading carries, if its text is exactly a notice's.
     *
     * @param reading a verified reading's text
     * @return the notice, or empty for any other text (a malformed notice is no notice)
     */
    public static Optional<SkipNotice> parse(String reading) {
        if (!reading.startsWith(RESERVED)) {
            return Optional.empty();
        }
        Matcher m = TEXT.matcher(reading);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            long from = Long.parseLong(m.group(1));
            long to = Long.parseLong(m.group(2));
            return from <= to ? Optional.of(new SkipNotice(from, to)) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty(); // above Long.MAX_VALUE
        }
    }
}
