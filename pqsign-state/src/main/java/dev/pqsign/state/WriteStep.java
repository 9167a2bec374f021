package dev.pqsign.state;

/**
 * The file-system steps of a durable atomic write, in the order they run. A
 * {@link DurableWriteException} names the step that failed, so an operator can tell a full disk
 * (usually {@link #WRITE_TEMP} or {@link #FORCE_TEMP}) from a file system that cannot rename
 * atomically ({@link #RENAME}) or a failing directory sync ({@link #FORCE_DIRECTORY}).
 */
public enum WriteStep {
    /** Creating the temporary file next to the target (create-new, never reusing a file). */
    OPEN_TEMP("create temporary file", false),
    /** Writing the new bytes into the temporary file. */
    WRITE_TEMP("write temporary file", false),
    /** {@code FileChannel.force(true)} on the temporary file: data and metadata reach the disk. */
    FORCE_TEMP("fsync temporary file", false),
    /** Closing the temporary file (some file systems report deferred write errors here). */
    CLOSE_TEMP("close temporary file", false),
    /** Atomic rename of the temporary file over the target (replace). */
    RENAME("atomically rename temporary file", false),
    /** Hard-linking the temporary file as the target, failing if the target exists (create-only). */
    LINK("link temporary file", false),
    /** fsync of the directory, which makes the rename or link itself durable. */
    FORCE_DIRECTORY("fsync directory", true);

    private final String description;
    private final boolean mayHavePublished;

    WriteStep(String description, boolean mayHavePublished) {
        this.description = description;
        this.mayHavePublished = mayHavePublished;
    }

    /**
     * A short lower-case phrase for messages, e.g. "fsync temporary file".
     *
     * @return the description
     */
    public String description() {
        return description;
    }

    /**
     * Whether a failure of this step can leave the new content visible under the target name. Only
     * the directory sync runs after the (atomic, all-or-nothing) rename or link, so only its failure
     * leaves the new content in place, with its durability unknown; a failure of any earlier step
     * leaves the old content (or no file, for a create) untouched.
     *
     * @return true for the directory sync only
     */
    public boolean mayHavePublished() {
        return mayHavePublished;
    }
}
