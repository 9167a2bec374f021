package dev.pqsign.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.Hex;
import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.StatefulSigner;
import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaePrivateKey;
import dev.pqsign.lms.HssKeyGenerator;
import dev.pqsign.lms.HssKeyState;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssPrivateKey;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.state.NotRegularFileException;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssPrivateKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real key files of every format pqsign writes, opened through the one entry point. */
class PrivateKeysTest {
    private static final HssParameterSet HSS_SET =
            HssParameterSet.byName("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8").orElseThrow();

    @TempDir
    Path dir;

    /** An XMSS^MT key state file; returns its public key. */
    private PqPublicKey xmssState(Path file) throws IOException {
        XmssPrivateKey key = XmssKeyGenerator.generate(TestKeys.SET);
        PqPublicKey pub = PqPublicKey.of(key.publicKey());
        FileStateStore.create(file, XmssKeyState.fresh(key).encode(), FileStateStore.DEFAULT_LOCK_TIMEOUT)
                .close();
        key.destroy();
        return pub;
    }

    private PqPublicKey hssState(Path file) throws IOException {
        HssPrivateKey key = HssKeyGenerator.generate(HSS_SET, new SecureRandom(), 1, null);
        PqPublicKey pub = PqPublicKey.of(key.publicKey());
        FileStateStore.create(file, HssKeyState.fresh(key).encode(), FileStateStore.DEFAULT_LOCK_TIMEOUT)
                .close();
        key.destroy();
        return pub;
    }

    private HaetaeKeyPair haetaeFile(Path file) throws IOException {
        HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_2, new SecureRandom());
        DurableFiles.createAtomically(file, HaetaeKeyFile.encode(kp.privateKey()));
        return kp;
    }

    @Test
    void open_xmssKeyState_statefulSignerOfItsPublicKey_indexBurnedOnDisk() throws IOException {
        Path file = dir.resolve("key.state");
        PqPublicKey pub = xmssState(file);
        byte[] message = "m".getBytes(StandardCharsets.US_ASCII);
        try (OpenedPrivateKey k = PrivateKeys.open(file, PrivateKeys.Options.defaults())) {
            assertEquals(PrivateKeyFormat.XMSS_KEY_STATE, k.format());
            assertEquals(pub, k.publicKey());
            assertEquals(file, k.file());
            assertTrue(k.haetaeKey().isEmpty());
            StatefulSigner signer = k.statefulSigner().orElseThrow();
            assertEquals(k.signer(), signer);
            IndexedSignature s = signer.signIndexed(i -> message);
            assertEquals(0, s.index());
            assertTrue(k.publicKey().verifier().verify(message, s.signature()));
        }
        assertEquals(1, XmssKeyState.decode(Files.readAllBytes(file)).nextIndex(), "the index is burned in the file");
    }

    @Test
    void open_hssKeyState_statefulSignerOfItsPublicKey() throws IOException {
        Path file = dir.resolve("key.state");
        PqPublicKey pub = hssState(file);
        byte[] message = "m".getBytes(StandardCharsets.US_ASCII);
        try (OpenedPrivateKey k = PrivateKeys.open(file, PrivateKeys.Options.defaults())) {
            assertEquals(PrivateKeyFormat.HSS_KEY_STATE, k.format());
            assertEquals(pub, k.publicKey());
            byte[] sig = k.statefulSigner().orElseThrow().sign(message);
            assertTrue(k.publicKey().verifier().verify(message, sig));
        }
        assertEquals(1, HssKeyState.decode(Files.readAllBytes(file)).nextIndex());
    }

    @Test
    void open_haetaeKeyFile_signsAndCloseDestroysTheKey() throws IOException {
        Path file = dir.resolve("key.sk");
        HaetaeKeyPair kp = haetaeFile(file);
        byte[] message = "m".getBytes(StandardCharsets.US_ASCII);
        HaetaePrivateKey sk;
        try (OpenedPrivateKey k = PrivateKeys.open(file, PrivateKeys.Options.defaults())) {
            assertEquals(PrivateKeyFormat.HAETAE_KEY_FILE, k.format());
            assertEquals(PqPublicKey.of(kp.publicKey()), k.publicKey());
            assertTrue(k.statefulSigner().isEmpty());
            sk = k.haetaeKey().orElseThrow();
            assertArrayEquals(kp.privateKey().getEncoded(), sk.getEncoded());
            assertTrue(k.publicKey().verifier().verify(message, k.signer().sign(message)));
        }
        assertTrue(sk.isDestroyed());
    }

    @Test
    void open_closeTwice_noError() throws IOException {
        Path file = dir.resolve("key.state");
        xmssState(file);
        OpenedPrivateKey k = PrivateKeys.open(file, PrivateKeys.Options.defaults());
        k.close();
        k.close();
        assertFalse(k.statefulSigner().orElseThrow().isUsable());
    }

    @Test
    void open_notAKeyFile_refusedWithoutCreatingAnything() throws IOException {
        Path file = dir.resolve("key.pub");
        Files.write(file, TestKeys.freshPublicKey().rawEncoding());
        KeyFormatException e =
                assertThrows(KeyFormatException.class, () -> PrivateKeys.open(file, PrivateKeys.Options.defaults()));
        assertTrue(e.getMessage().contains("not a pqsign private key"), e.getMessage());
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no lock or temporary file made beside it");
        }
    }

    @Test
    void open_fileLargerThanAnyKey_refused() throws IOException {
        Path file = dir.resolve("key.state");
        byte[] big = new byte[PrivateKeys.MAX_FILE_BYTES + 1];
        System.arraycopy(new byte[] {'P', 'Q', 'X', 'S'}, 0, big, 0, 4); // the XMSS key state's magic
        Files.write(file, big);
        assertThrows(KeyFormatException.class, () -> PrivateKeys.open(file, PrivateKeys.Options.defaults()));
        assertThrows(KeyFormatException.class, () -> PrivateKeys.summary(file));
    }

    @Test
    void open_missingFileOrDirectory_refused() {
        assertThrows(
                NoSuchFileException.class,
                () -> PrivateKeys.open(dir.resolve("absent"), PrivateKeys.Options.defaults()));
        assertThrows(NotRegularFileException.class, () -> PrivateKeys.open(dir, PrivateKeys.Options.defaults()));
        assertThrows(NotRegularFileException.class, () -> PrivateKeys.formatOf(dir));
    }

    @Test
    void formatOf_eachFormat_andEmptyForOtherFiles() throws IOException {
        xmssState(dir.resolve("x.state"));
        hssState(dir.resolve("h.state"));
        haetaeFile(dir.resolve("key.sk"));
        Files.write(dir.resolve("short"), new byte[] {'P', 'Q', 'X'});
        Files.write(dir.resolve("key.pub"), TestKeys.freshPublicKey().rawEncoding());
        assertEquals(Optional.of(PrivateKeyFormat.XMSS_KEY_STATE), PrivateKeys.formatOf(dir.resolve("x.state")));
        assertEquals(Optional.of(PrivateKeyFormat.HSS_KEY_STATE), PrivateKeys.formatOf(dir.resolve("h.state")));
        assertEquals(Optional.of(PrivateKeyFormat.HAETAE_KEY_FILE), PrivateKeys.formatOf(dir.resolve("key.sk")));
        assertEquals(Optional.empty(), PrivateKeys.formatOf(dir.resolve("short")));
        assertEquals(Optional.empty(), PrivateKeys.formatOf(dir.resolve("key.pub")));
        assertTrue(PrivateKeyFormat.XMSS_KEY_STATE.isKeyState());
        assertTrue(PrivateKeyFormat.HSS_KEY_STATE.isKeyState());
        assertFalse(PrivateKeyFormat.HAETAE_KEY_FILE.isKeyState());
    }

    @Test
    void summary_eachFormat_publicFactsAndTheFileUnchanged() throws IOException {
        Path x = dir.resolve("x.state");
        PqPublicKey xpub = xmssState(x);
        byte[] before = Files.readAllBytes(x);
        assertEquals(
                Optional.of(new PrivateKeySummary(
                        PrivateKeyFormat.XMSS_KEY_STATE,
                        TestKeys.SET.setName(),
                        xpub,
                        OptionalLong.of(TestKeys.SET.maxSignatures()))),
                PrivateKeys.summary(x));
        assertArrayEquals(before, Files.readAllBytes(x));
        Path h = dir.resolve("h.state");
        PqPublicKey hpub = hssState(h);
        PrivateKeySummary hs = PrivateKeys.summary(h).orElseThrow();
        assertEquals(HSS_SET.setName(), hs.parameterSetName());
        assertEquals(hpub, hs.publicKey());
        assertEquals(OptionalLong.of(32), hs.remaining());
        Path sk = dir.resolve("key.sk");
        HaetaeKeyPair kp = haetaeFile(sk);
        assertEquals(
                Optional.of(new PrivateKeySummary(
                        PrivateKeyFormat.HAETAE_KEY_FILE,
                        HaetaeParameterSet.HAETAE_2.setName(),
                        PqPublicKey.of(kp.publicKey()),
                        OptionalLong.empty())),
                PrivateKeys.summary(sk));
        Files.write(dir.resolve("key.pub"), xpub.rawEncoding());
        assertEquals(Optional.empty(), PrivateKeys.summary(dir.resolve("key.pub")));
    }

    @Test
    void summary_corruptKeyState_refused() throws IOException {
        Path x = dir.resolve("x.state");
        xmssState(x);
        byte[] b = Files.readAllBytes(x);
        Files.write(x, java.util.Arrays.copyOf(b, b.length - 1));
        assertThrows(KeyFormatException.class, () -> PrivateKeys.summary(x));
    }

    @Test
    void toString_namesFileAndSet_noKeyMaterial() throws IOException {
        Path file = dir.resolve("key.sk");
        HaetaeKeyPair kp = haetaeFile(file);
        try (OpenedPrivateKey k = PrivateKeys.open(file, PrivateKeys.Options.defaults())) {
            String s = k.toString();
            assertTrue(s.contains(file.toString()) && s.contains("HAETAE"), s);
            String secret = Hex.encode(kp.privateKey().getEncoded());
            for (int i = 0; i + 16 <= secret.length(); i += 16) {
                assertFalse(s.contains(secret.substring(i, i + 16)), s);
            }
        }
    }

    @Test
    void options_negativeLockTimeout_refused() {
        assertThrows(
                IllegalArgumentException.class,
                () -> PrivateKeys.Options.defaults().withLockTimeout(java.time.Duration.ofSeconds(-1)));
    }
}
