package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.StatePersistenceException;
import dev.pqsign.state.DurableWriteException;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.state.Mounts;
import dev.pqsign.state.WriteStep;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The signer on a real file system that stops accepting writes under it: the key's directory is
 * remounted read-only, or its tmpfs fills up. The signer must throw
 * {@link StatePersistenceException}, release no signature, stay unusable, and leave a state from
 * which a reopened signer continues without reusing an index. Needs root and permission to mount;
 * skipped (not failed) elsewhere.
 */
@EnabledOnOs(OS.LINUX)
class XmssRealFaultTest {
    private static final XmssParameterSet SET = XmssParameterSet.XMSSMT_SHA2_20_4_256;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    @RegisterExtension
    final Mounts mounts = new Mounts();

    private static byte[] msg(long i) {
        return ("fault reading " + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void sign_afterDirectoryRemountedReadOnly_throwsReleasesNothingAndStaysUnusable() throws Exception {
        XmssPrivateKey key = XmssStatefulSignerTest.key(SET, 51);
        Path keyDir = Files.createDirectory(dir.resolve("keys"));
        Path state = keyDir.resolve("key.state");
        FileStateStore.create(state, XmssKeyState.fresh(key).encode(), TIMEOUT).close();
        try (FileStateStore store = FileStateStore.open(state, TIMEOUT);
                XmssStatefulSigner signer =
                        XmssStatefulSigner.open(store, Options.defaults().withThreads(2))) {
            assertEquals(0, signer.signIndexed(XmssRealFaultTest::msg).index());
            // The same path becomes read-only under the running signer.
            mounts.mount(keyDir, "--bind", keyDir.toString());
            mounts.mount(keyDir, "-o", "remount,bind,ro");
            List<IndexedSignature> released = new ArrayList<>();
            StatePersistenceException e = assertThrows(
                    StatePersistenceException.class, () -> released.add(signer.signIndexed(XmssRealFaultTest::msg)));
            assertTrue(released.isEmpty());
            assertTrue(
                    e.getMessage().contains(state.getFileName().toString())
                            && e.getMessage().contains("Read-only file system")
                            && e.getMessage().contains("unusable"),
                    e.getMessage());
            assertFalse(signer.isUsable());
            System.out.println("read-only directory: " + e.getMessage());
            mounts.unmount(keyDir);
            mounts.unmount(keyDir);
            // Writable again, but this signer stays unusable; it must be reopened.
            StatePersistenceException again = assertThrows(StatePersistenceException.class, () -> signer.sign(msg(9)));
            assertTrue(again.getMessage().contains("unusable"), again.getMessage());
        }
        assertEquals(
                1, XmssKeyState.decode(Files.readAllBytes(state)).nextIndex(), "the failed reservation burned nothing");
        try (FileStateStore store = FileStateStore.open(state, TIMEOUT);
                XmssStatefulSigner signer =
                        XmssStatefulSigner.open(store, Options.defaults().withThreads(2))) {
            IndexedSignature s = signer.signIndexed(XmssRealFaultTest::msg);
            assertEquals(1, s.index());
            assertTrue(new XmssVerifier(key.publicKey()).verify(msg(1), s.signature()));
        }
    }

    @Test
    void sign_onFullTmpfs_throwsAtWriteTempReleasesNothingAndStaysUnusable() throws Exception {
        XmssPrivateKey key = XmssStatefulSignerTest.key(SET, 52);
        Path mp = Files.createDirectory(dir.resolve("tmpfs"));
        mounts.mount(mp, "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs");
        Path state = mp.resolve("key.state");
        Path filler = mp.resolve("filler");
        try (FileStateStore store =
                        FileStateStore.create(state, XmssKeyState.fresh(key).encode(), TIMEOUT);
                XmssStatefulSigner signer =
                        XmssStatefulSigner.open(store, Options.defaults().withThreads(2))) {
            signer.sign(msg(0));
            signer.sign(msg(1));
            fill(filler);
            List<IndexedSignature> released = new ArrayList<>();
            StatePersistenceException e = assertThrows(
                    StatePersistenceException.class, () -> released.add(signer.signIndexed(XmssRealFaultTest::msg)));
            assertTrue(released.isEmpty());
            assertTrue(e.getCause() instanceof DurableWriteException, String.valueOf(e.getCause()));
            assertEquals(WriteStep.WRITE_TEMP, ((DurableWriteException) e.getCause()).step());
            assertTrue(
                    e.getMessage().contains("No space left on device")
                            && e.getMessage().contains(state.toString()),
                    e.getMessage());
            assertFalse(signer.isUsable());
            System.out.println("full tmpfs: " + e.getMessage());
            Files.delete(filler);
            assertThrows(StatePersistenceException.class, () -> signer.sign(msg(9)), "stays unusable");
            try (Stream<Path> s = Files.list(mp)) {
                assertEquals(
                        List.of(),
                        s.filter(p -> p.getFileName().toString().contains(".tmp-"))
                                .toList(),
                        "temporary file left behind");
            }
        }
        assertEquals(2, XmssKeyState.decode(Files.readAllBytes(state)).nextIndex());
        try (FileStateStore store = FileStateStore.open(state, TIMEOUT);
                XmssStatefulSigner signer =
                        XmssStatefulSigner.open(store, Options.defaults().withThreads(2))) {
            assertEquals(2, signer.signIndexed(XmssRealFaultTest::msg).index());
        }
    }

    /** Writes {@code file} until the file system is full. */
    private static void fill(Path file) throws IOException {
        byte[] chunk = new byte[4096];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int i = 0; i < 1 << 16; i++) {
                out.write(chunk);
                out.flush();
            }
        } catch (IOException expected) {
            assertTrue(String.valueOf(expected.getMessage()).contains("No space left"), expected.toString());
            return;
        }
        throw new AssertionError("tmpfs never filled up");
    }
}
