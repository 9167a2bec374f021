package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.state.ChildJvm;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.state.SigningChild;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILLs a process in the middle of a key split (before the shrink, between the shrink and the part
 * files, between two part files) and checks that the files that exist afterwards never own an index
 * in common: the original holds exactly range 1 once it was shrunk, each existing part file is whole
 * and holds its own range, and parts that were not written are lost, never duplicated.
 */
class XmssSplitCrashTest {
    private static final XmssParameterSet SET = XmssParameterSet.XMSSMT_SHA2_20_4_256;
    private static final int PARTS = 4;
    private static final long PAUSE_MS = 60;

    @TempDir
    Path dir;

    @Test
    void sigkillDuringSplit_filesNeverShareAnIndex() throws Exception {
        run(8, 5);
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sigkillDuringSplit_long() throws Exception {
        run(60, System.nanoTime());
    }

    private void run(int kills, long seed) throws Exception {
        Random random = new Random(seed);
        XmssPrivateKey key = XmssStatefulSignerTest.key(SET, 81);
        XmssVerifier verifier = new XmssVerifier(key.publicKey());
        int[] partsWritten = new int[PARTS + 1];
        int beforeShrink = 0;
        for (int k = 0; k < kills; k++) {
            String where = "seed " + seed + ", run " + k;
            Path runDir = Files.createDirectory(dir.resolve("run" + k));
            Path state = runDir.resolve("key.state");
            FileStateStore.create(
                            state, XmssKeyState.fresh(key).withRange(100, 500).encode(), Duration.ofSeconds(10))
                    .close();
            ChildJvm child = XmssSplitChild.start(
                    runDir, state.toString(), runDir.toString(), Integer.toString(PARTS), Long.toString(PAUSE_MS));
            if (k % 4 == 0) {
                Thread.sleep(random.nextInt(400)); // usually still starting: before the shrink
            } else {
                assertNotNull(child.awaitLine(1, 120_000), where + ": " + child.stderr());
                Thread.sleep(random.nextInt((int) (PARTS * PAUSE_MS)));
            }
            child.kill();

            XmssKeyState original = XmssKeyState.decode(Files.readAllBytes(state));
            assertEquals(100, original.nextIndex(), where);
            int written = 0;
            if (original.endIndex() == 500) {
                beforeShrink++;
            } else {
                assertEquals(200, original.endIndex(), where + ": shrunk to range 1");
            }
            for (int i = 2; i <= PARTS; i++) {
                Path part = runDir.resolve("part-" + i + ".state");
                if (!Files.exists(part)) {
                    continue;
                }
                assertTrue(
                        original.endIndex() == 200, where + ": part " + i + " exists but the original was not shrunk");
                XmssKeyState s = XmssKeyState.decode(Files.readAllBytes(part));
                assertEquals(100 + 100L * (i - 1), s.nextIndex(), where + " part " + i);
                assertEquals(100 + 100L * i, s.endIndex(), where + " part " + i);
                assertEquals(i, written + 2, where + ": parts are created in order");
                written++;
            }
            if (original.endIndex() == 200) {
                partsWritten[written]++;
            }
            // Every file that exists signs only its own indices.
            Set<Long> used = new HashSet<>();
            for (Path f : listStates(runDir)) {
                try (FileStateStore store = FileStateStore.open(f, Duration.ofSeconds(10));
                        XmssStatefulSigner signer = XmssStatefulSigner.open(
                                store, Options.defaults().withThreads(1))) {
                    var s = signer.signIndexed(SigningChild::message);
                    assertTrue(used.add(s.index()), where + ": index " + s.index() + " owned by two files");
                    assertTrue(verifier.verify(SigningChild.message(s.index()), s.signature()));
                }
            }
            // A shrunk original refuses to go past range 1.
            if (original.endIndex() == 200) {
                try (FileStateStore store = FileStateStore.open(state, Duration.ofSeconds(10));
                        XmssStatefulSigner signer = XmssStatefulSigner.open(
                                store, Options.defaults().withThreads(1))) {
                    assertEquals(99, signer.remaining());
                    store.update(
                            cur -> XmssKeyState.decode(cur).withNextIndex(200).encode());
                    assertThrows(KeyExhaustedException.class, () -> signer.sign(SigningChild.message(0)), where);
                }
            }
            assertFalse(Files.exists(runDir.resolve("part-1.state")));
        }
        System.out.printf(
                "split crash test: %d kills, %d before the shrink; kills after the shrink by number of "
                        + "part files written (0..%d): %s%n",
                kills,
                beforeShrink,
                PARTS - 1,
                java.util.Arrays.toString(java.util.Arrays.copyOf(partsWritten, PARTS)));
    }

    private static List<Path> listStates(Path d) throws Exception {
        try (var s = Files.list(d)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".state"))
                    .sorted()
                    .toList();
        }
    }
}
