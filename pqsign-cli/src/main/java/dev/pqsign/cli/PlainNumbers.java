package dev.pqsign.cli;

import dev.pqsign.telemetry.ReadingText;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The only number syntax pqsign's options take: ASCII digits with an optional minus sign, and for
 * decimals a point and more digits. Java's parsers also take other scripts' digits ({@code ٣}),
 * exponents ({@code 1e20}), {@code NaN}, {@code Infinity} and hexadecimal floats, which on a
 * command line are typos or probes, never an intent (docs/cli-safety.md, "Numbers").
 */
final class PlainNumbers {
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,19}");
    private static final Pattern DECIMAL = Pattern.compile("-?[0-9]{1,15}(\\.[0-9]{1,15})?");

    private PlainNumbers() {}

    /** Registers the converters with {@code cl} and every subcommand it has now. */
    static void register(CommandLine cl) {
        ITypeConverter<Integer> ints = s -> (int) integer(s, Integer.MIN_VALUE, Integer.MAX_VALUE);
        ITypeConverter<Long> longs = s -> integer(s, Long.MIN_VALUE, Long.MAX_VALUE);
        ITypeConverter<Double> doubles = PlainNumbers::decimal;
        cl.registerConverter(Integer.class, ints);
        cl.registerConverter(Integer.TYPE, ints);
        cl.registerConverter(Long.class, longs);
        cl.registerConverter(Long.TYPE, longs);
        cl.registerConverter(Double.class, doubles);
        cl.registerConverter(Double.TYPE, doubles);
    }

    static long integer(String s, long min, long max) {
        if (!INTEGER.matcher(s).matches()) {
            throw new TypeConversionException("'" + shown(s) + "' is not a whole number in ASCII digits (such as 10)");
        }
        long v;
        try {
            v = Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + s + "' is too large");
        }
        if (v < min || v > max) {
            throw new TypeConversionException("'" + s + "' is too large");
        }
        return v;
    }

    static double decimal(String s) {
        if (!DECIMAL.matcher(s).matches()) {
            throw new TypeConversionException(
                    "'" + shown(s) + "' is not a decimal number in ASCII digits (such as 10 or 0.5)");
        }
        return Double.parseDouble(s);
    }

    /** The argument as a message may show it: printable, and cut when long. */
    private static String shown(String s) {
        String cut = s.length() > 40 ? s.substring(0, 40) + "…" : s;
        return ReadingText.printable(cut);
    }
}
