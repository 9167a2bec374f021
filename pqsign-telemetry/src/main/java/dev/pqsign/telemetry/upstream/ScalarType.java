package dev.pqsign.telemetry.upstream;

import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * The OPC UA built-in types (Part 6, 5.1.2) whose scalar values an upstream reading carries, with
 * the grammar of their value in the text. Every other type (arrays, structures, ByteString,
 * LocalizedText, NodeId, ...) is reported as {@link UpstreamUnsupported}.
 */
public enum ScalarType {
    /** {@code true} or {@code false}. */
    BOOLEAN("Boolean"),
    /** Decimal integer −128…127. */
    SBYTE("SByte"),
    /** Decimal integer 0…255. */
    BYTE("Byte"),
    /** Decimal integer −2^15…2^15−1. */
    INT16("Int16"),
    /** Decimal integer 0…2^16−1. */
    UINT16("UInt16"),
    /** Decimal integer −2^31…2^31−1. */
    INT32("Int32"),
    /** Decimal integer 0…2^32−1. */
    UINT32("UInt32"),
    /** Decimal integer −2^63…2^63−1. */
    INT64("Int64"),
    /** Decimal integer 0…2^64−1. */
    UINT64("UInt64"),
    /** IEEE 754 binary32: a decimal that converts (round to nearest) to exactly the value, or NaN / ±Infinity. */
    FLOAT("Float"),
    /** IEEE 754 binary64: a decimal that converts (round to nearest) to exactly the value, or NaN / ±Infinity. */
    DOUBLE("Double"),
    /** A quoted string ({@code "…"}, escaped), possibly cut short (see {@link UpstreamValue}). */
    STRING("String"),
    /** An {@link UpstreamTime}. */
    DATE_TIME("DateTime");

    private static final Pattern INTEGER = Pattern.compile("0|-?[1-9][0-9]{0,19}");
    private static final Pattern DECIMAL = Pattern.compile("-?[0-9]+\\.[0-9]+(E-?[0-9]+)?");

    private final String opcUaName;

    ScalarType(String opcUaName) {
        this.opcUaName = opcUaName;
    }

    /**
     * The type's name in OPC UA and in the text, e.g. {@code Double}.
     *
     * @return the built-in type's name
     */
    public String opcUaName() {
        return opcUaName;
    }

    /**
     * The type of a name.
     *
     * @param name a built-in type's name as {@link #opcUaName()} gives it
     * @return the type
     * @throws IllegalArgumentException if it names no type of this enum
     */
    public static ScalarType named(String name) {
        for (ScalarType t : values()) {
            if (t.opcUaName.equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("not a supported scalar type: " + name);
    }

    /**
     * Checks a value token (not for {@link #STRING}, whose value is quoted) against the type's grammar
     * and range.
     *
     * @param token the value as written in the text
     * @throws IllegalArgumentException if it is not a value of this type
     */
    void check(String token) {
        switch (this) {
            case BOOLEAN -> {
                if (!token.equals("true") && !token.equals("false")) {
                    throw new IllegalArgumentException("Boolean value must be true or false: " + token);
                }
            }
            case SBYTE -> integer(token, -128, 127);
            case BYTE -> integer(token, 0, 255);
            case INT16 -> integer(token, Short.MIN_VALUE, Short.MAX_VALUE);
            case UINT16 -> integer(token, 0, 0xffff);
            case INT32 -> integer(token, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case UINT32 -> integer(token, 0, 0xffffffffL);
            case INT64 -> integer(token, BigInteger.valueOf(Long.MIN_VALUE), BigInteger.valueOf(Long.MAX_VALUE));
            case UINT64 ->
                integer(token, BigInteger.ZERO, BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE));
            case FLOAT -> floating(token, true);
            case DOUBLE -> floating(token, false);
            case DATE_TIME -> UpstreamTime.parse(token);
            case STRING -> throw new IllegalArgumentException("a String value is quoted");
        }
    }

    private void integer(String token, long min, long max) {
        integer(token, BigInteger.valueOf(min), BigInteger.valueOf(max));
    }

    private void integer(String token, BigInteger min, BigInteger max) {
        if (!INTEGER.matcher(token).matches()) {
            throw new IllegalArgumentException(opcUaName + " value must be a decimal integer: " + token);
        }
        BigInteger v = new BigInteger(token);
        if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
            throw new IllegalArgumentException(opcUaName + " value out of range " + min + "…" + max + ": " + token);
        }
    }

    private void floating(String token, boolean single) {
        if (token.equals("NaN") || token.equals("Infinity") || token.equals("-Infinity")) {
            return;
        }
        if (!DECIMAL.matcher(token).matches() || token.length() > 64) {
            throw new IllegalArgumentException(
                    opcUaName + " value must be a decimal (digits.digits[E[-]digits]), NaN or [-]Infinity: " + token);
        }
        boolean finite = single ? Float.isFinite(Float.parseFloat(token)) : Double.isFinite(Double.parseDouble(token));
        if (!finite) {
            throw new IllegalArgumentException(opcUaName + " value out of range: " + token);
        }
    }
}
