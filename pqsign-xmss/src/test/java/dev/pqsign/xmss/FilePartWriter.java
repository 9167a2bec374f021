package dev.pqsign.xmss;

import dev.pqsign.state.DurableFiles;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Test {@link XmssKeySplit.PartWriter}: {@code DIR/part-<i>.state}, create-only and durable. Not final:
 * tests that need a failure or a pause before a part file is created override {@link #create}.
 */
class FilePartWriter implements XmssKeySplit.PartWriter {
    final Path dir;

    FilePartWriter(Path dir) {
        this.dir = dir;
    }

    Path path(int part) {
        return dir.resolve("part-" + part + ".state");
    }

    @Override
    public void checkAbsent(int part) throws IOException {
        if (Files.exists(path(part), LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(path(part).toString(), null, "part file already exists");
        }
    }

    @Override
    public void create(int part, byte[] encodedState) throws IOException {
        DurableFiles.createAtomically(path(part), encodedState);
    }

    @Override
    public String describe(int part) {
        return path(part).toString();
    }
}
