package dev.pqsign.haetae;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.api.Test;

/**
 * The engines tell the {@link HaetaeWorkAreaProbe}s registered with {@link java.util.ServiceLoader}
 * (test resources: {@link Recording} and {@link Throwing}) about the very work areas they use, once
 * per area and thread, and a probe that throws changes nothing.
 */
class WorkAreaProbeTest {

    /** One notification: the thread, what kind of area, and the area. */
    record Seen(Thread thread, String key, Object area) {}

    /** Records every notification. */
    public static final class Recording implements HaetaeWorkAreaProbe {
        static final List<Seen> SEEN = new ArrayList<>();

        @Override
        public void fastAreaCreated(HaetaeParameterSet set, Object area) {
            synchronized (SEEN) {
                SEEN.add(new Seen(Thread.currentThread(), "fast " + set.setName(), area));
            }
        }

        @Override
        public void compactAreaCreated(String operation, Object area) {
            synchronized (SEEN) {
                SEEN.add(new Seen(Thread.currentThread(), "compact " + operation, area));
            }
        }
    }

    /** Always throws: the engines must ignore it. */
    public static final class Throwing implements HaetaeWorkAreaProbe {
        @Override
        public void fastAreaCreated(HaetaeParameterSet set, Object area) {
            throw new IllegalStateException("probe failure");
        }

        @Override
        public void compactAreaCreated(String operation, Object area) {
            throw new IllegalStateException("probe failure");
        }
    }

    private static List<Seen> seenOn(Thread t) {
        List<Seen> out = new ArrayList<>();
        synchronized (Recording.SEEN) {
            for (Seen s : Recording.SEEN) {
                if (s.thread() == t) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    /** Runs every operation of both engines twice on a fresh thread; returns what the probe saw there. */
    private static List<Object> onFreshThread() throws Exception {
        // A thread of our own: a pool (CompletableFuture's default executor on some JDKs) reuses its
        // threads, and a reused thread already holds the areas of an earlier call.
        FutureTask<List<Object>> task = new FutureTask<>(() -> {
            HaetaeParameterSet p = HaetaeParameterSet.HAETAE_2;
            byte[] msg = {1, 2, 3};
            for (int round = 0; round < 2; round++) {
                for (HaetaeEngine e : HaetaeEngine.values()) {
                    HaetaeKeyPair kp = HaetaeKeyPairGenerator.fromSeed(p, new byte[32], e);
                    HaetaeSigner signer = new HaetaeSigner(
                            kp.privateKey(), new byte[0], HaetaeSampler.V1_2_0, e, new FixedRandom(new byte[32]));
                    byte[] sig = signer.sign(msg);
                    assertTrue(new HaetaeVerifier(kp.publicKey(), new byte[0], e).verify(msg, sig));
                }
            }
            List<Object> r = new ArrayList<>();
            r.add(seenOn(Thread.currentThread()));
            r.add(HaetaeContext.forThread(p));
            r.add(CompactEngine.forThread(CompactEngine.Op.KEYGEN));
            r.add(CompactEngine.forThread(CompactEngine.Op.SIGN));
            r.add(CompactEngine.forThread(CompactEngine.Op.VERIFY));
            return r;
        });
        Thread thread = new Thread(task, "work-area-probe");
        thread.start();
        return task.get();
    }

    @Test
    @SuppressWarnings("unchecked")
    void probe_seesEachAreaTheEnginesUse_oncePerThread() throws Exception {
        List<Object> r = onFreshThread();
        List<Seen> seen = (List<Seen>) r.get(0);
        assertEquals(
                List.of("fast HAETAE-2", "compact keygen", "compact sign", "compact verify"),
                seen.stream()
                        .map(Seen::key)
                        .sorted((a, b) -> order(a) - order(b))
                        .toList());
        for (Seen s : seen) {
            Object expected = switch (s.key()) {
                case "fast HAETAE-2" -> r.get(1);
                case "compact keygen" -> r.get(2);
                case "compact sign" -> r.get(3);
                default -> r.get(4);
            };
            assertSame(expected, s.area(), s.key());
        }
    }

    private static int order(String key) {
        return List.of("fast HAETAE-2", "compact keygen", "compact sign", "compact verify")
                .indexOf(key);
    }

    @Test
    @SuppressWarnings("unchecked")
    void probe_otherThreadGetsItsOwnAreas() throws Exception {
        List<Seen> first = (List<Seen>) onFreshThread().get(0);
        List<Seen> second = (List<Seen>) onFreshThread().get(0);
        assertEquals(first.size(), second.size());
        for (int i = 0; i < first.size(); i++) {
            assertNotSame(first.get(i).area(), second.get(i).area());
        }
    }
}
