package dev.pqsign.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.state.ChildJvm;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssPrivateKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILLs a child sensor that signs with automatic rollover (XMSSMT-SHA2_10/2_256, 1,024 signatures
 * per key) right after each rollover step at least once, and at seeded random moments, restarting it
 * every time. Afterwards: the handovers form one chain from the first key, every signature verifies
 * under the key of its generation, no (generation, index) was used twice, no key signed after its
 * handover index, and no retired key's state is left on disk.
 */
class RolloverCrashTest {
    private static final Pattern SIG = Pattern.compile("(\\d+)-(\\d+)-(\\d+)\\.sig");
    private static final int WANTED = 2_150;

    @TempDir
    Path tmp;

    @Test
    void sigkillAtEveryRolloverStepAndAtRandom_noIndexReusedAndChainUnbroken() throws Exception {
        run(2, 20261201L);
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sigkillAtRandom_long() throws Exception {
        run(40, System.nanoTime());
    }

    private void run(int randomKills, long seed) throws Exception {
        Random rnd = new Random(seed);
        Path dir = tmp.resolve("sensor");
        Path out = Files.createDirectories(tmp.resolve("out"));
        XmssPrivateKey first = XmssKeyGenerator.generate(TestKeys.SET);
        PqPublicKey firstKey = PqPublicKey.of(first.publicKey());
        SensorKeyDirectory.create(dir, first);
        first.destroy();

        List<String> plan = new ArrayList<>();
        for (RolloverStep s : RolloverStep.values()) {
            plan.add(s.name());
        }
        for (int i = 0; i < randomKills; i++) {
            plan.add("random");
        }
        int runNo = 0;
        Set<String> stepsKilledAt = new HashSet<>();
        for (String p : plan) {
            runNo++;
            ChildJvm c = ChildJvm.start(
                    tmp,
                    64,
                    RolloverChild.class,
                    dir.toString(),
                    out.toString(),
                    Integer.toString(runNo),
                    Integer.toString(WANTED),
                    p.equals("random") ? "none" : p);
            if (p.equals("random")) {
                Thread.sleep(300 + rnd.nextInt(1_500));
            } else {
                assertNotNull(
                        awaitLine(c, "PAUSED", 120_000), "run " + runNo + " never reached " + p + ": " + c.lines());
                stepsKilledAt.add(p);
            }
            c.kill();
        }
        ChildJvm last = ChildJvm.start(
                tmp,
                64,
                RolloverChild.class,
                dir.toString(),
                out.toString(),
                Integer.toString(++runNo),
                Integer.toString(WANTED),
                "none");
        assertEquals(0, last.await(180), "final run failed: " + last.lines());
        assertEquals(RolloverStep.values().length, stepsKilledAt.size());

        // The chain, from the first key and the published handovers only.
        KeyChain chain = KeyChain.startingAt(firstKey);
        Map<Long, PqPublicKey> keyOfGeneration = new HashMap<>();
        Map<Long, Long> handoverIndex = new HashMap<>();
        keyOfGeneration.put(0L, firstKey);
        for (long g = 1; Files.exists(out.resolve("handover-" + g + ".pqho")); g++) {
            SignedKeyHandover h = SignedKeyHandover.decode(Files.readAllBytes(out.resolve("handover-" + g + ".pqho")));
            KeyChain.Step step = chain.follow(h);
            assertEquals(HandoverOutcome.FOLLOWED, step.outcome(), "handover " + g);
            chain = step.chain();
            keyOfGeneration.put(g, h.statement().newKey());
            handoverIndex.put(g - 1, h.statement().handoverIndex());
        }
        assertTrue(
                chain.current().generation() >= 2,
                "expected at least two rollovers, got " + chain.current().generation());

        Set<String> used = new HashSet<>();
        int verified = 0;
        try (Stream<Path> files = Files.list(out)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Matcher m = SIG.matcher(f.getFileName().toString());
                if (!m.matches()) {
                    continue;
                }
                long g = Long.parseLong(m.group(1));
                long i = Long.parseLong(m.group(2));
                assertTrue(used.add(g + "/" + i), "generation " + g + " index " + i + " used twice");
                PqPublicKey key = keyOfGeneration.get(g);
                assertNotNull(key, "signature of unknown generation " + g);
                assertTrue(key.verifier().verify(RolloverChild.message(g, i), Files.readAllBytes(f)), f.toString());
                Long retiredAt = handoverIndex.get(g);
                if (retiredAt != null) {
                    assertTrue(
                            i < retiredAt,
                            "generation " + g + " signed index " + i + " at or after its handover " + retiredAt);
                }
                verified++;
            }
        }
        assertTrue(verified >= WANTED, "only " + verified + " signatures");
        for (long g = 0; g < chain.current().generation(); g++) {
            Path state = g == 0
                    ? dir.resolve("key.state")
                    : dir.resolve("generations")
                            .resolve(String.format("%012d", g))
                            .resolve("key.state");
            assertFalse(Files.exists(state), "retired state left: " + state);
        }
    }

    static String awaitLine(ChildJvm c, String wanted, long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < deadline) {
            for (String l : c.lines()) {
                if (l.equals(wanted)) {
                    return l;
                }
            }
            if (!c.isAlive()) {
                return null;
            }
            Thread.sleep(5);
        }
        return null;
    }
}
