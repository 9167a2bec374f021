package dev.pqsign.operator;

/** Why an operator run could not start or ended early, with the exit code a command should give. */
public final class OperatorFailure extends Exception {
    private static final long serialVersionUID = 1L;

    /** Exit code of a failed operation (a sensor not reached, an output that cannot be written). */
    public static final int FAILED = 1;

    /** Exit code of bad input (a data directory that cannot be used, an invalid endpoint). */
    public static final int BAD_INPUT = 2;

    /** The exit code. */
    private final int exitCode;

    private OperatorFailure(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    static OperatorFailure failed(String message) {
        return new OperatorFailure(FAILED, message);
    }

    static OperatorFailure badInput(String message) {
        return new OperatorFailure(BAD_INPUT, message);
    }

    /**
     * The exit code a command should end with.
     *
     * @return {@link #FAILED} or {@link #BAD_INPUT}
     */
    public int exitCode() {
        return exitCode;
    }
}
