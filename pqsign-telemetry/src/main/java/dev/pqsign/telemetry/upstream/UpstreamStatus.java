package dev.pqsign.telemetry.upstream;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * An OPC UA status code as upstream reading texts write it: the symbolic name of its code (the upper
 * 16 bits, OPC UA Part 4, 7.39), e.g. {@code Good}, {@code Uncertain_LastUsableValue},
 * {@code Bad_NodeIdUnknown}, or for a code the sensor has no name for {@code 0x} and the eight
 * lowercase hex digits of the code with the lower 16 bits zero; then, if any of the lower 16 bits
 * (info type and info bits: limit, overflow, semantics and structure changed) is set,
 * {@code +0x} and those 16 bits as four lowercase hex digits.
 *
 * @param name the code's symbolic name, or {@code 0xHHHH0000}
 * @param infoBits the lower 16 bits of the status code
 */
public record UpstreamStatus(String name, int infoBits) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,63}|0x[0-9a-f]{4}0000");

    /** The status of a value that is good, with no info bits. */
    public static final UpstreamStatus GOOD = new UpstreamStatus("Good", 0);

    /**
     * Checks the name and bits.
     *
     * @param name the code's symbolic name, or {@code 0xHHHH0000}
     * @param infoBits the lower 16 bits of the status code
     * @throws IllegalArgumentException if the name is not 1…64 letters, digits and underscores
     *     starting with a letter (nor {@code 0xHHHH0000}), or the bits do not fit 16 bits
     */
    public UpstreamStatus {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a status code name: " + name);
        }
        if (infoBits < 0 || infoBits > 0xffff) {
            throw new IllegalArgumentException("info bits must fit 16 bits, got " + infoBits);
        }
    }

    /**
     * A status whose code has no name: written by its number.
     *
     * @param code the 32-bit status code
     * @return the status, named {@code 0xHHHH0000}
     */
    public static UpstreamStatus unnamed(long code) {
        return new UpstreamStatus(String.format(Locale.ROOT, "0x%08x", code & 0xffff0000L), (int) (code & 0xffff));
    }

    /**
     * Whether the code is Good (severity bits 00), from the name or the number.
     *
     * @return whether good
     */
    public boolean isGood() {
        return severity() == 0;
    }

    /**
     * Whether the code is Bad (severity bits 10 or 11).
     *
     * @return whether bad
     */
    public boolean isBad() {
        return severity() >= 2;
    }

    /**
     * Whether the code is Uncertain (severity bits 01).
     *
     * @return whether uncertain
     */
    public boolean isUncertain() {
        return severity() == 1;
    }

    private int severity() {
        if (name.startsWith("0x")) {
            return Integer.parseInt(name.substring(2, 3), 16) >> 2;
        }
        if (name.startsWith("Good")) {
            return 0;
        }
        return name.startsWith("Uncertain") ? 1 : 2;
    }

    /**
     * The text: the name, then {@code +0xHHHH} if any info bit is set.
     *
     * @return the status as upstream texts write it
     */
    public String text() {
        return infoBits == 0 ? name : name + String.format(Locale.ROOT, "+0x%04x", infoBits);
    }

    /**
     * Parses {@link #text()}.
     *
     * @param text a status as upstream texts write it
     * @return the status
     * @throws IllegalArgumentException if it is not one
     */
    public static UpstreamStatus parse(String text) {
        int plus = text.indexOf('+');
        if (plus < 0) {
            return new UpstreamStatus(text, 0);
        }
        String bits = text.substring(plus + 1);
        if (!bits.matches("0x[0-9a-f]{4}") || bits.equals("0x0000")) {
            throw new IllegalArgumentException(
                    "info bits must be +0x and four lowercase hex digits, not zero: " + text);
        }
        return new UpstreamStatus(text.substring(0, plus), Integer.parseInt(bits.substring(2), 16));
    }

    @Override
    public String toString() {
        return text();
    }
}
