package dev.pqsign.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Real file operations, except that the first call of one chosen step throws an IOException. For
 * {@link WriteStep#WRITE_TEMP} half of the bytes are written first, so the temporary file is left
 * torn, as after a real ENOSPC.
 */
class FaultyFileOps implements FileOps {
    private final WriteStep failAt;
    private boolean fired;

    FaultyFileOps(WriteStep failAt) {
        this.failAt = failAt;
    }

    boolean fired() {
        return fired;
    }

    private void maybeFail(WriteStep step) throws IOException {
        if (step == failAt && !fired) {
            fired = true;
            throw new IOException("injected fault at " + step);
        }
    }

    @Override
    public FileChannel openTemp(Path temp) throws IOException {
        maybeFail(WriteStep.OPEN_TEMP);
        return REAL.openTemp(temp);
    }

    @Override
    public void write(FileChannel channel, ByteBuffer src) throws IOException {
        if (failAt == WriteStep.WRITE_TEMP && !fired) {
            ByteBuffer half = src.duplicate();
            half.limit(src.position() + src.remaining() / 2);
            REAL.write(channel, half);
        }
        maybeFail(WriteStep.WRITE_TEMP);
        REAL.write(channel, src);
    }

    @Override
    public void force(FileChannel channel) throws IOException {
        maybeFail(WriteStep.FORCE_TEMP);
        REAL.force(channel);
    }

    @Override
    public void close(FileChannel channel) throws IOException {
        if (failAt == WriteStep.CLOSE_TEMP && !fired) {
            // Like a deferred write error reported by close(2): the descriptor is gone anyway.
            REAL.close(channel);
        }
        maybeFail(WriteStep.CLOSE_TEMP);
        REAL.close(channel);
    }

    @Override
    public void moveAtomically(Path source, Path target) throws IOException {
        maybeFail(WriteStep.RENAME);
        REAL.moveAtomically(source, target);
    }

    @Override
    public void link(Path link, Path existing) throws IOException {
        maybeFail(WriteStep.LINK);
        REAL.link(link, existing);
    }

    @Override
    public void forceDirectory(Path dir) throws IOException {
        maybeFail(WriteStep.FORCE_DIRECTORY);
        REAL.forceDirectory(dir);
    }
}
