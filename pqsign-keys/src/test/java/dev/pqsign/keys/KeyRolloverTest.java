package dev.pqsign.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssPrivateKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The handover on the background thread, on a real key directory (real files, fsync). */
class KeyRolloverTest {
    /** Hand over after four signatures of the 1,024 of {@link TestKeys#SET}. */
    private static final long SWITCH_AT = 1020;

    @TempDir
    Path tmp;

    private SensorKeyDirectory directory() throws IOException {
        XmssPrivateKey first = XmssKeyGenerator.generate(TestKeys.SET);
        Path dir = tmp.resolve("sensor");
        SensorKeyDirectory.create(dir, first);
        first.destroy();
        return SensorKeyDirectory.open(dir, SensorKeyDirectory.Options.defaults());
    }

    private static IndexedSignature sign(SensorKeyDirectory keys, int n) {
        return keys.currentSigner().signIndexed(i -> ("reading " + n).getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void afterSignature_handoverDue_beforeSignatureReturnsItOnceSignedAtTheNextIndex() throws Exception {
        try (SensorKeyDirectory keys = directory();
                KeyRollover rollover = KeyRollover.of(keys, 0, SWITCH_AT, Clock.systemUTC())) {
            PqPublicKey first = keys.currentKey();
            long lastIndex = -1;
            for (int n = 0; n < 4; n++) {
                assertEquals(Optional.empty(), rollover.beforeSignature());
                lastIndex = sign(keys, n).index();
                rollover.afterSignature();
            }
            // The handover is under way or done; the status still describes the key that signed.
            assertEquals(0, rollover.status().generation());
            assertArrayEquals(PublicKeys.keyId(first), rollover.status().keyId());

            Optional<SignedKeyHandover> h = rollover.beforeSignature();

            assertTrue(h.isPresent());
            assertEquals(1, h.get().statement().sequence());
            assertEquals(lastIndex + 1, h.get().statement().handoverIndex(), "the statement takes the next index");
            assertTrue(h.get().isSignedBy(first));
            assertEquals(keys.currentKey(), h.get().statement().newKey());
            assertEquals(1, keys.generation());
            assertEquals(1, rollover.status().generation());
            assertEquals(Optional.empty(), rollover.beforeSignature(), "a handover is returned once");
            assertEquals(0, sign(keys, 4).index(), "the new key signs from its first index");
        }
    }

    @Test
    void onHandover_listenerRuns_handoverIfDoneReturnsTheDurableHandover() throws Exception {
        try (SensorKeyDirectory keys = directory();
                KeyRollover rollover = KeyRollover.of(keys, 0, SWITCH_AT, Clock.systemUTC())) {
            CountDownLatch done = new CountDownLatch(1);
            rollover.onHandover(done::countDown);
            assertEquals(Optional.empty(), rollover.handoverIfDone());
            for (int n = 0; n < 4; n++) {
                sign(keys, n);
                rollover.afterSignature();
            }

            assertTrue(done.await(60, TimeUnit.SECONDS), "the listener hears of the handover");
            Optional<SignedKeyHandover> h = rollover.handoverIfDone();

            assertTrue(h.isPresent());
            assertTrue(Files.isRegularFile(keys.generationDir(1).resolve(SensorKeyDirectory.HANDOVER)));
            assertEquals(Optional.empty(), rollover.beforeSignature());
        }
    }

    @Test
    void beforeSignature_handoverCannotBeStored_throwsAndTheCurrentKeyStaysThenRetries() throws Exception {
        try (SensorKeyDirectory keys = directory();
                KeyRollover rollover = KeyRollover.of(keys, 0, SWITCH_AT, Clock.systemUTC())) {
            PqPublicKey first = keys.currentKey();
            for (int n = 0; n < 3; n++) {
                sign(keys, n);
                rollover.afterSignature();
            }
            // Prepared by now (the first afterSignature started it; the fourth would wait for it).
            assertTrue(keys.nextKeyReady() || awaitReady(keys));
            Path blocker = keys.generationDir(1).resolve(SensorKeyDirectory.HANDOVER);
            Files.createDirectory(blocker); // the statement cannot be stored under this name
            sign(keys, 3);
            rollover.afterSignature();

            assertThrows(IOException.class, rollover::beforeSignature);
            assertEquals(0, keys.generation());
            assertEquals(first, keys.currentKey());
            assertEquals(Optional.empty(), rollover.beforeSignature(), "a failure is reported once");

            Files.delete(blocker);
            long lastIndex = sign(keys, 4).index();
            rollover.afterSignature();
            Optional<SignedKeyHandover> h = rollover.beforeSignature();

            assertTrue(h.isPresent());
            assertEquals(1, keys.generation());
            assertTrue(h.get().statement().handoverIndex() > lastIndex, "the failed attempt's index is not reused");
            assertTrue(h.get().isSignedBy(first));
        }
    }

    private static boolean awaitReady(SensorKeyDirectory keys) throws InterruptedException {
        for (int i = 0; i < 600 && !keys.nextKeyReady(); i++) {
            Thread.sleep(100);
        }
        return keys.nextKeyReady();
    }

    @Test
    void status_whileNothingIsUnderWay_isTheDirectorysCurrentKey() throws Exception {
        try (SensorKeyDirectory keys = directory();
                KeyRollover rollover = KeyRollover.of(keys, 0, SWITCH_AT, Clock.systemUTC())) {
            sign(keys, 0);
            rollover.afterSignature();

            KeyRollover.Status st = rollover.status();

            assertEquals(0, st.generation());
            assertEquals(keys.currentSigner().remaining(), st.remaining());
            assertFalse(st.preparationFailure().isPresent());
        }
    }

    @Test
    void open_aGenerationDirectory_refusedPointingAtTheKeyDirectory() throws Exception {
        Path generation;
        try (SensorKeyDirectory keys = directory()) {
            assertTrue(keys.prepareNext());
            generation = tmp.resolve("sensor")
                    .resolve(SensorKeyDirectory.GENERATIONS)
                    .resolve("000000000001");
            assertTrue(Files.isRegularFile(generation.resolve(SensorKeyDirectory.STATE)));
        }
        assertEquals(Optional.of(tmp.resolve("sensor")), SensorKeyDirectory.enclosingKeyDirectory(generation));
        assertEquals(Optional.empty(), SensorKeyDirectory.enclosingKeyDirectory(tmp.resolve("sensor")));
        dev.pqsign.core.KeyFormatException e = assertThrows(
                dev.pqsign.core.KeyFormatException.class,
                () -> SensorKeyDirectory.open(generation, SensorKeyDirectory.Options.defaults()));
        assertTrue(
                e.getMessage().contains("generation 1 of the key directory " + tmp.resolve("sensor")), e.getMessage());
        assertFalse(Files.exists(generation.resolve(SensorKeyDirectory.GENERATIONS)));
        assertFalse(Files.exists(generation.resolve(KeyDirectoryOwner.FILE)));
    }
}
