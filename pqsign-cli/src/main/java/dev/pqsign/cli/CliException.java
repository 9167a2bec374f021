package dev.pqsign.cli;

/** A failure the CLI reports as one line on stderr with a specific exit code. */
final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Exit code for bad usage or unreadable / malformed input. */
    static final int USAGE = 2;
    /** Exit code for an operation that ran but did not succeed (invalid signature, exhausted key). */
    static final int FAILED = 1;

    final int exitCode;

    CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    static CliException usage(String message) {
        return new CliException(USAGE, message);
    }
}
