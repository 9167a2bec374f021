package dev.pqsign.state;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A durable atomic write failed at a known {@link WriteStep}. By the time this is thrown the
 * temporary file has been removed (or its removal failed, which is attached as a suppressed
 * exception). The message names the step, the target file and whether the old content is still in
 * place; it never contains the bytes being written.
 */
public final class DurableWriteException extends IOException {
    private static final long serialVersionUID = 1L;

    private final WriteStep step;
    private final transient Path target;

    DurableWriteException(WriteStep step, Path target, Path temp, boolean createOnly, IOException cause) {
        super(message(step, target, temp, createOnly, cause), cause);
        this.step = Objects.requireNonNull(step, "step");
        this.target = Objects.requireNonNull(target, "target");
    }

    /**
     * The step that failed.
     *
     * @return the failed step
     */
    public WriteStep step() {
        return step;
    }

    /**
     * The file that was being written (not the temporary file).
     *
     * @return the target file
     */
    public Path target() {
        return target;
    }

    private static String message(WriteStep step, Path target, Path temp, boolean createOnly, IOException cause) {
        StringBuilder sb = new StringBuilder();
        sb.append("durable write of ")
                .append(target)
                .append(" failed: could not ")
                .append(step.description());
        if (step == WriteStep.FORCE_DIRECTORY) {
            sb.append(' ').append(target.toAbsolutePath().getParent());
        } else if (temp != null) {
            sb.append(' ').append(temp);
        }
        sb.append(" (").append(describe(cause)).append("); ");
        if (step.mayHavePublished()) {
            sb.append("the new content is already visible but may not survive a power loss");
        } else if (createOnly) {
            sb.append("the file was not created");
        } else {
            sb.append("the previous content of the file is unchanged");
        }
        return sb.toString();
    }

    /** The cause in words, without Java class names: these messages are shown to operators. */
    static String describe(IOException cause) {
        if (cause instanceof AtomicMoveNotSupportedException amn) {
            return "atomic rename not supported" + (amn.getReason() == null ? "" : ": " + amn.getReason());
        }
        if (cause instanceof FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        if (cause instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (cause instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (cause instanceof FileAlreadyExistsException) {
            return "file exists";
        }
        if (cause instanceof FileSystemException) {
            return "file system error";
        }
        return cause.getMessage() == null ? "input/output error" : cause.getMessage();
    }
}
