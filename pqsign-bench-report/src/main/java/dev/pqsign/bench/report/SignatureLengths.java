package dev.pqsign.bench.report;

/** The shortest and the longest signature a timed signing case made (its warm-up calls included). */
final class SignatureLengths {
    private int min = Integer.MAX_VALUE;
    private int max;

    /** Counts {@code signature} and returns it, so that a timed call can pass its result through. */
    byte[] seen(byte[] signature) {
        min = Math.min(min, signature.length);
        max = Math.max(max, signature.length);
        return signature;
    }

    int min() {
        return min;
    }

    int max() {
        return max;
    }
}
