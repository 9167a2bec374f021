package dev.pqsign.cli;

/**
 * Range checks for numeric options, run before an option's value is used: a value outside its
 * range is a usage error, never a loop of two billion rounds or an overflow (docs/cli-safety.md).
 */
final class Bounds {
    /** An hour is longer than any wait for another signer's lock can sensibly be. */
    static final int MAX_LOCK_TIMEOUT = 3600;

    private Bounds() {}

    /** Returns {@code value} if {@code min <= value <= max}, else refuses it naming the option. */
    static int check(String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw CliException.usage(option + " must be between " + min + " and " + max + ", got " + value);
        }
        return value;
    }

    static int lockTimeout(int seconds) {
        return check("--lock-timeout", seconds, 0, MAX_LOCK_TIMEOUT);
    }
}
