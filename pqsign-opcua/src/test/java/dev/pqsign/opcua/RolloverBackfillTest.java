package dev.pqsign.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.keys.KeyRollover;
import dev.pqsign.keys.SensorKeyDirectory;
import dev.pqsign.telemetry.ReadingHistory;
import dev.pqsign.telemetry.RollingSensorKey;
import dev.pqsign.telemetry.operator.AcceptedRecords;
import dev.pqsign.telemetry.operator.KeyChainFollower;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.ReplayGuard;
import dev.pqsign.telemetry.operator.TrustedKeys;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rolling sensor goes away while an operator's backfill is half way through its history, before
 * the key handover the history holds: the values the operator was notified of live meanwhile
 * (readings of the new key, whose handover it has not read yet) are held back, not judged, and
 * judged in order once the sensor is back and its history is read to the end. Real OPC UA over
 * loopback, real XMSS^MT keys in a real key directory; the operator's worker is held inside the
 * first record of its backfill (its observer blocks) so the sensor is gone before the second
 * HistoryRead, every time.
 */
class RolloverBackfillTest {
    /** 4.7 KB records: a HistoryRead carries about 220 of them, so the handover is in a later read. */
    static final XmssParameterSet SET = XmssParameterSet.XMSSMT_SHA2_10_2_256;
    /** The first key signs 300 readings, then hands over. */
    static final long SWITCH_AT = 1024 - 300;

    @TempDir
    Path dir;

    private final RolloverRig rig = new RolloverRig();

    @AfterEach
    void closeAll() throws Exception {
        rig.closeAll();
    }

    @Test
    void sensorGoneMidBackfill_liveReadingsOfNewKeyHeldBack_allAcceptedInOrderAfterItReturns() throws Exception {
        XmssPrivateKey first = XmssKeyGenerator.generate(SET);
        SensorKeyDirectory.create(dir.resolve("k"), first);
        PqPublicKey firstKey = PqPublicKey.of(first.publicKey());
        first.destroy();
        SensorKeyDirectory keys = SensorKeyDirectory.open(dir.resolve("k"), SensorKeyDirectory.Options.defaults());
        RollingSensorKey rolling =
                rig.opened(new RollingSensorKey(keys, KeyRollover.of(keys, 0, SWITCH_AT, Clock.systemUTC())));
        // Kept across the sensor's restart, like its history file.
        ReadingHistory history = rig.opened(ReadingHistory.inMemory(10_000, Duration.ofHours(1), Clock.systemUTC()));
        int port = freePort();
        SensorServer sensor = rig.sensor(startSensor(rolling, history, port));
        for (int i = 0; i < 320; i++) {
            sensor.publish("1500.00,before-" + i);
        }
        assertEquals(1, keys.generation(), "the history holds 300 readings, the handover, 20 readings");

        CountDownLatch inBackfill = new CountDownLatch(1);
        CountDownLatch sensorGone = new CountDownLatch(1);
        ReplayGuard guard = rig.opened(ReplayGuard.inDirectory(dir.resolve("replay")));
        AcceptedRecords accepted = rig.opened(AcceptedRecords.inDirectory(dir.resolve("accepted"), 64));
        ReadingVerifier verifier =
                new ReadingVerifier(guard, List.of(TrustedKeys.of(firstKey)), accepted, dir.resolve("evidence"));
        KeyChainFollower chains = new KeyChainFollower(dir.resolve("chains"));
        chains.follow(firstKey, verifier);
        Operator operator = rig.opened(new Operator(
                new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2), verifier, chains, o -> {
                    rig.observe(o);
                    if (inBackfill.getCount() > 0) {
                        inBackfill.countDown();
                        try {
                            sensorGone.await(); // the worker stays inside the backfill's first read
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }));
        RecordSubscription c = operator.connect("s1", sensor.endpointUrl(), TransportSecurity.NONE, verifier);
        assertTrue(inBackfill.await(60, TimeUnit.SECONDS), "the backfill judged its first record");
        for (int i = 0; i < 10; i++) {
            sensor.publish("1500.00,live-" + i); // notified live, queued behind the backfill
        }
        rig.closeSensor(); // waits until those notifications are sent
        sensorGone.countDown();
        // The backfill's next HistoryRead finds no sensor; the sensor comes back only once the
        // operator holds values back (else that read could reach the restarted sensor and the
        // backfill would not break off at all).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (c.deferred() == 0) {
            assertTrue(System.nanoTime() < deadline, "the operator never held a value back");
            Thread.sleep(10);
        }
        assertEquals(
                0,
                rig.observations().stream().filter(o -> !o.verdict().accepted()).count(),
                "nothing but acceptances while the history is half read: " + rig.observations());

        sensor = rig.sensor(startSensor(rolling, history, port));
        long last = -1;
        for (int i = 0; i < 10; i++) {
            last = sensor.publish("1500.00,after-" + i).sequence();
        }
        // Nothing rejected, no gap: what was held back came again from the history.
        RolloverRig.Followed seen = RolloverRig.Followed.from(rig.takeUntil(last, Duration.ofMinutes(2)));

        assertEquals(1, seen.followed().size());
        assertEquals(2, seen.acceptedByKey().size());
        int total = 0;
        for (List<Long> arrived : seen.acceptedByKey().values()) {
            TreeSet<Long> indices = new TreeSet<>(arrived);
            assertEquals(arrived.size(), indices.size(), "accepted once: " + arrived);
            assertEquals(indices.size() - 1, indices.last(), "every index from 0 on");
            total += indices.size();
        }
        assertEquals(340, total);
    }

    private SensorServer startSensor(RollingSensorKey rolling, ReadingHistory history, int port) throws Exception {
        SensorServer s = SensorServer.start(
                new SensorServer.Config("s1", dir.resolve("sensor"), "127.0.0.1", port, TransportSecurity.NONE),
                rolling.current(),
                history);
        s.rollWith(rolling);
        return s;
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
