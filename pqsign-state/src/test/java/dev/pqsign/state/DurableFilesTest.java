package dev.pqsign.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DurableFilesTest {

    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void writeAtomically_newFile_createsItWithContent() throws IOException {
        Path f = dir.resolve("a.bin");
        DurableFiles.writeAtomically(f, bytes("hello"));
        assertArrayEquals(bytes("hello"), Files.readAllBytes(f));
        assertTrue(TempFiles.of(f).isEmpty());
    }

    @Test
    void writeAtomically_existingFile_replacesContentWhole() throws IOException {
        Path f = dir.resolve("a.bin");
        Files.write(f, bytes("a much longer old content than the new one"));
        DurableFiles.writeAtomically(f, bytes("new"));
        assertArrayEquals(bytes("new"), Files.readAllBytes(f));
        assertTrue(TempFiles.of(f).isEmpty());
    }

    @Test
    void writeAtomically_onPosix_fileIsOwnerOnly() throws IOException {
        assumeTrue(FileOps.POSIX, "POSIX permissions not supported here");
        Path f = dir.resolve("secret.bin");
        DurableFiles.writeAtomically(f, bytes("seed"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
    }

    @Test
    void writeAtomically_missingDirectory_throwsNamingIt() {
        Path f = dir.resolve("nope").resolve("a.bin");
        NoSuchFileException e =
                assertThrows(NoSuchFileException.class, () -> DurableFiles.writeAtomically(f, bytes("x")));
        assertTrue(e.getMessage().contains(dir.resolve("nope").toString()), e.getMessage());
    }

    @Test
    void createAtomically_existingFile_throwsAndLeavesItUnchanged() throws IOException {
        Path f = dir.resolve("a.bin");
        Files.write(f, bytes("old"));
        FileAlreadyExistsException e =
                assertThrows(FileAlreadyExistsException.class, () -> DurableFiles.createAtomically(f, bytes("new")));
        assertTrue(e.getMessage().contains(f.toString()), e.getMessage());
        assertArrayEquals(bytes("old"), Files.readAllBytes(f));
        assertTrue(TempFiles.of(f).isEmpty(), "temp left: " + TempFiles.of(f));
    }

    @Test
    void createAtomically_newFile_leavesNoSecondLink() throws IOException {
        Path f = dir.resolve("a.bin");
        DurableFiles.createAtomically(f, bytes("first"));
        assertArrayEquals(bytes("first"), Files.readAllBytes(f));
        assertTrue(TempFiles.of(f).isEmpty());
        assertEquals(1, ((Number) Files.getAttribute(f, "unix:nlink")).intValue());
    }

    @Test
    void readAll_fileLargerThanLimit_throwsNamingSizeAndFile() throws IOException {
        Path f = dir.resolve("big.bin");
        Files.write(f, new byte[101]);
        IOException e = assertThrows(IOException.class, () -> DurableFiles.readAll(f, 100));
        assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("101 bytes"), e.getMessage());
        assertEquals(101, DurableFiles.readAll(f, 101).length);
    }

    @Test
    void readAll_missingFile_throwsNoSuchFileNamingIt() {
        Path f = dir.resolve("missing.bin");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> DurableFiles.readAll(f, 10));
        assertTrue(e.getMessage().contains(f.toString()), e.getMessage());
    }

    @Test
    void deleteLeftoverTemps_deletesOnlyExactTempNamesOfThatTarget() throws IOException {
        Path f = dir.resolve("key.state");
        Files.write(f, bytes("state"));
        Path leftover = dir.resolve(".key.state.tmp-0123456789abcdef");
        Path otherTarget = dir.resolve(".other.state.tmp-0123456789abcdef");
        Path wrongSuffix = dir.resolve(".key.state.tmp-0123456789abcdeX");
        Path shortSuffix = dir.resolve(".key.state.tmp-0123");
        for (Path p : List.of(leftover, otherTarget, wrongSuffix, shortSuffix)) {
            Files.write(p, bytes("junk"));
        }
        assertEquals(1, DurableFiles.deleteLeftoverTemps(f));
        assertFalse(Files.exists(leftover));
        assertTrue(Files.exists(otherTarget) && Files.exists(wrongSuffix) && Files.exists(shortSuffix));
        assertArrayEquals(bytes("state"), Files.readAllBytes(f));
    }

    @ParameterizedTest
    @EnumSource(
            value = WriteStep.class,
            names = {"OPEN_TEMP", "WRITE_TEMP", "FORCE_TEMP", "CLOSE_TEMP", "RENAME"})
    void writeAtomically_faultBeforePublish_keepsOldContentAndRemovesTemp(WriteStep step) throws IOException {
        Path f = dir.resolve("a.bin");
        Files.write(f, bytes("old content"));
        FaultyFileOps ops = new FaultyFileOps(step);
        DurableWriteException e = assertThrows(
                DurableWriteException.class, () -> DurableFiles.write(f, bytes("new content!"), ops, false));
        assertTrue(ops.fired());
        assertEquals(step, e.step());
        assertEquals(f.toAbsolutePath(), e.target());
        assertTrue(e.getMessage().contains(step.description()), e.getMessage());
        assertTrue(e.getMessage().contains(f.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("unchanged"), e.getMessage());
        assertArrayEquals(bytes("old content"), Files.readAllBytes(f));
        assertEquals(List.of(), TempFiles.of(f));
    }

    @Test
    void writeAtomically_directorySyncFails_reportsNewContentVisibleAndRemovesTemp() throws IOException {
        Path f = dir.resolve("a.bin");
        Files.write(f, bytes("old content"));
        FaultyFileOps ops = new FaultyFileOps(WriteStep.FORCE_DIRECTORY);
        DurableWriteException e = assertThrows(
                DurableWriteException.class, () -> DurableFiles.write(f, bytes("new content!"), ops, false));
        assertEquals(WriteStep.FORCE_DIRECTORY, e.step());
        assertTrue(e.getMessage().contains("fsync directory " + dir), e.getMessage());
        assertTrue(e.getMessage().contains("may not survive"), e.getMessage());
        // The rename happened before the failed sync, so the file is whole and new.
        assertArrayEquals(bytes("new content!"), Files.readAllBytes(f));
        assertEquals(List.of(), TempFiles.of(f));
    }

    @ParameterizedTest
    @EnumSource(
            value = WriteStep.class,
            names = {"OPEN_TEMP", "WRITE_TEMP", "FORCE_TEMP", "CLOSE_TEMP", "LINK"})
    void createAtomically_faultBeforePublish_createsNothing(WriteStep step) throws IOException {
        Path f = dir.resolve("a.bin");
        FaultyFileOps ops = new FaultyFileOps(step);
        DurableWriteException e =
                assertThrows(DurableWriteException.class, () -> DurableFiles.write(f, bytes("first"), ops, true));
        assertEquals(step, e.step());
        assertTrue(
                e.getMessage().contains(step.description()) && e.getMessage().contains("not created"), e.getMessage());
        assertFalse(Files.exists(f));
        assertEquals(List.of(), TempFiles.of(f));
    }

    @Test
    void write_renameFails_doesNotFallBackToCopy() throws IOException {
        Path f = dir.resolve("a.bin");
        Files.write(f, bytes("old"));
        FileOps noAtomicMove = new FaultyFileOps(null) {
            @Override
            public void moveAtomically(Path source, Path target) throws IOException {
                throw new java.nio.file.AtomicMoveNotSupportedException(
                        source.toString(), target.toString(), "cross-device");
            }
        };
        DurableWriteException e = assertThrows(
                DurableWriteException.class, () -> DurableFiles.write(f, bytes("new"), noAtomicMove, false));
        assertEquals(WriteStep.RENAME, e.step());
        assertTrue(e.getMessage().contains("atomic rename not supported: cross-device"), e.getMessage());
        assertFalse(e.getMessage().contains("Exception"), "no Java class names in messages: " + e.getMessage());
        assertArrayEquals(bytes("old"), Files.readAllBytes(f));
        assertEquals(List.of(), TempFiles.of(f));
    }
}
