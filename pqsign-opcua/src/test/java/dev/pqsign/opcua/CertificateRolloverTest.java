package dev.pqsign.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.keys.DeviceCa;
import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.keys.KeyCertificateChain;
import dev.pqsign.keys.KeyRollover;
import dev.pqsign.keys.SensorKeyDirectory;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.ReadingHistory;
import dev.pqsign.telemetry.RollingSensorKey;
import dev.pqsign.telemetry.Verdict.Reason;
import dev.pqsign.telemetry.operator.AcceptedRecords;
import dev.pqsign.telemetry.operator.DeviceCaTrust;
import dev.pqsign.telemetry.operator.KeyChainFollower;
import dev.pqsign.telemetry.operator.Observation;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.ReplayGuard;
import dev.pqsign.telemetry.operator.TrustedKeys;
import dev.pqsign.x509.CertificateTemplate;
import dev.pqsign.x509.Certificates;
import dev.pqsign.x509.Pem;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The certificate path of key rollover over real OPC UA on loopback, with real keys on real files:
 * a sensor whose device CA (under the plant root, path length 0) certifies each next key, and an
 * operator that trusts only the root and the sensor's first certificate chain. It follows the
 * sensor's keys while the same device CA certifies them, and refuses a key certified by another
 * device CA under the same root: an alarm, and no reading of that key accepted.
 */
class CertificateRolloverTest {
    /** The smallest set with an RFC 9802 encoding: 1,024 signatures per key. */
    static final XmssParameterSet SENSOR_SET = XmssParameterSet.XMSS_SHA2_10_256;
    /** For the root and device CAs: registered, and quick to generate (32-leaf top tree). */
    static final XmssParameterSet CA_SET = XmssParameterSet.XMSSMT_SHA2_40_8_256;
    /** Hand over when this many are left: every 24 readings, so a test crosses rollovers quickly. */
    static final long SWITCH_AT = 1000;

    @TempDir
    Path dir;

    private final RolloverRig rig = new RolloverRig();
    private PqCertificate root;

    @BeforeEach
    void makeRootAndDeviceCas() throws Exception {
        XmssPrivateKey k = XmssKeyGenerator.generate(CA_SET);
        FileStateStore store = FileStateStore.open(dir.resolve("root.state"));
        XmssStatefulSigner.create(store, k);
        k.destroy();
        try (store;
                XmssStatefulSigner rootSigner = XmssStatefulSigner.open(store)) {
            root = Certificates.selfSigned(rootSigner, "CN=Plant Root,O=Test", 3650);
            for (String name : List.of("a", "b")) {
                DeviceCa.create(
                        dir.resolve("devca-" + name),
                        CA_SET,
                        rootSigner,
                        root,
                        CertificateTemplate.forDays(
                                "CN=sensor-1 device CA " + name + ",O=Test", 365, Clock.systemUTC()));
            }
        }
    }

    @AfterEach
    void closeAll() throws Exception {
        rig.closeAll();
    }

    /**
     * Starts the sensor: key directory "k", its first key certified by device CA a, every later key
     * by {@code nextKeysCa}; returns the key directory.
     */
    private SensorKeyDirectory startSensor(String nextKeysCa) throws Exception {
        XmssPrivateKey first = XmssKeyGenerator.generate(SENSOR_SET);
        SensorKeyDirectory.create(dir.resolve("k"), first);
        first.destroy();
        SensorKeyDirectory keys = SensorKeyDirectory.open(dir.resolve("k"), SensorKeyDirectory.Options.defaults());
        DeviceCa a = rig.opened(DeviceCa.open(dir.resolve("devca-a"), Duration.ofSeconds(5), Clock.systemUTC()));
        DeviceCa next = nextKeysCa.equals("a")
                ? a
                : rig.opened(
                        DeviceCa.open(dir.resolve("devca-" + nextKeysCa), Duration.ofSeconds(5), Clock.systemUTC()));
        KeyRollover.Certifier certifier = (g, key) ->
                (g == 0 ? a : next).certify(key, "CN=sensor-1 generation " + g + ",O=Test", keys.certificateFile(g));
        certifier.certify(0, keys.currentKey());
        KeyRollover rollover = KeyRollover.of(keys, 0, SWITCH_AT, Clock.systemUTC(), certifier);
        RollingSensorKey rolling = rig.opened(new RollingSensorKey(keys, rollover));
        // A history, as `pqsign sensor` keeps one: what an operator missed is read from it.
        ReadingHistory history = rig.opened(ReadingHistory.inMemory(10_000, Duration.ofHours(1), Clock.systemUTC()));
        SensorServer sensor = rig.sensor(SensorServer.start(
                SensorServer.Config.loopback("s1", dir.resolve("sensor"), TransportSecurity.NONE),
                rolling.current(),
                history));
        sensor.rollWith(rolling);
        return keys;
    }

    /** An operator trusting only the root, bound to the sensor's first certificate chain. */
    private void startOperator(SensorKeyDirectory keys) throws Exception {
        startOperator(keys, false).forEach(rig::opened);
    }

    /**
     * As {@link #startOperator(SensorKeyDirectory)}; {@code remembering}: with the accepted-records
     * memory that positions a backfill from the sensor's history. Returns what to close to stop it.
     */
    private List<AutoCloseable> startOperator(SensorKeyDirectory keys, boolean remembering) throws Exception {
        List<PqCertificate> firstChain =
                Pem.readCertificates(Files.readString(keys.certificateFile(0), StandardCharsets.US_ASCII));
        DeviceCaTrust trust = DeviceCaTrust.of(firstChain, root, Instant.now());
        PqPublicKey firstKey = firstChain.get(0).publicKey();
        List<AutoCloseable> parts = new ArrayList<>();
        ReplayGuard guard = ReplayGuard.inDirectory(dir.resolve("replay"));
        parts.add(guard);
        ReadingVerifier verifier;
        if (remembering) {
            AcceptedRecords accepted = AcceptedRecords.inDirectory(dir.resolve("accepted"), 64);
            parts.add(accepted);
            verifier = new ReadingVerifier(guard, List.of(TrustedKeys.of(firstKey)), accepted, dir.resolve("evidence"));
        } else {
            verifier = new ReadingVerifier(guard, List.of(TrustedKeys.of(firstKey)));
        }
        KeyChainFollower chains = new KeyChainFollower(dir.resolve("chains"));
        chains.follow(firstKey, verifier);
        Operator operator = new Operator(
                new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2),
                verifier,
                chains,
                rig::observe);
        parts.add(operator);
        operator.connect("s1", rig.sensor().endpointUrl(), TransportSecurity.NONE, verifier, trust);
        return parts;
    }

    /** Publishes {@code n} readings and collects the observations until the last reading's verdict. */
    private List<Observation> publish(int n) throws Exception {
        long last = -1;
        for (int i = 0; i < n; i++) {
            last = rig.sensor().publish("reading-" + i).sequence();
        }
        return rig.takeUntil(last, Duration.ofSeconds(60));
    }

    @Test
    void sameDeviceCaCertifiesEveryKey_operatorTrustingOnlyRootFollowsTwoRollovers_everyIndexAccepted()
            throws Exception {
        SensorKeyDirectory keys = startSensor("a");
        startOperator(keys);

        RolloverRig.Followed seen = RolloverRig.Followed.from(publish(60));

        assertEquals(2, seen.followed().size(), "two rollovers within 60 readings of 24 per key");
        assertEquals(3, seen.acceptedByKey().size());
        assertEquals(60, seen.assertEveryIndexInOrder());
        assertEquals(2, keys.generation());
        // What the operator followed is on disk: the new key's chain next to the chain state.
        try (var files = Files.list(dir.resolve("chains"))) {
            List<Path> pqcc = files.filter(f -> f.toString().endsWith(".pqcc")).toList();
            assertEquals(1, pqcc.size());
            KeyCertificateChain stored = KeyCertificateChain.decode(Files.readAllBytes(pqcc.get(0)));
            assertEquals(keys.currentKey(), stored.leaf().publicKey());
        }
    }

    /**
     * The operator is stopped for three rollovers and started again (same data directories): its
     * backfill from the sensor's history meets the three handovers it missed, each without the
     * chain the sensor published live before it; it takes each key's chain from the sensor's list
     * (the history of current.key.certificates), checks it against the root and the device CA, and
     * follows the handovers in order. Every index of all four keys is accepted exactly once.
     */
    @Test
    void operatorAwayAcrossThreeRollovers_backfillFollowsEachInOrderWithItsCertificate_everyIndexAccepted()
            throws Exception {
        SensorKeyDirectory keys = startSensor("a");
        List<AutoCloseable> first = startOperator(keys, true);
        List<Observation> seen = new ArrayList<>(publish(10));
        RolloverRig.closeInReverse(first);
        for (int i = 0; i < 70; i++) {
            rig.sensor().publish("away-" + i); // hands over after readings 24, 48 and 72 (of 90)
        }
        assertEquals(3, keys.generation());
        startOperator(keys, true).forEach(rig::opened);
        seen.addAll(publish(10));

        RolloverRig.Followed judged = RolloverRig.Followed.from(seen);
        assertEquals(List.of(1L, 2L, 3L), judged.followed(), "each missed rollover, in order");
        assertEquals(4, judged.acceptedByKey().size());
        assertEquals(90, judged.assertEveryIndexInOrder());
        try (var files = Files.list(dir.resolve("chains"))) {
            Path pqcc = files.filter(f -> f.toString().endsWith(".pqcc"))
                    .findFirst()
                    .orElseThrow();
            assertEquals(
                    keys.currentKey(),
                    KeyCertificateChain.decode(Files.readAllBytes(pqcc)).leaf().publicKey());
        }
    }

    /**
     * As above, but the restarted operator has no accepted-records memory, so no backfill: the
     * first live reading of the fourth key is of a key it does not know; it reads the sensor's
     * handovers and their chains and follows all three in order before judging that reading.
     */
    @Test
    void operatorAwayAcrossThreeRollovers_liveReadingOfUnknownKey_catchesUpOnAllThreeWithCertificates()
            throws Exception {
        SensorKeyDirectory keys = startSensor("a");
        List<AutoCloseable> first = startOperator(keys, false);
        publish(10);
        RolloverRig.closeInReverse(first);
        for (int i = 0; i < 70; i++) {
            rig.sensor().publish("away-" + i);
        }
        assertEquals(3, keys.generation());
        startOperator(keys, false).forEach(rig::opened);
        List<Observation> seen = publish(10);

        List<Long> followed = new ArrayList<>();
        int accepted = 0;
        for (Observation o : seen) {
            if (o.handover() != null && o.gap() == null) {
                assertEquals(
                        HandoverOutcome.FOLLOWED,
                        o.handover().outcome(),
                        o.verdict().detail());
                followed.add(o.handover().handover().statement().sequence());
            } else if (o.verdict().reason() == Reason.ACCEPTED) {
                assertEquals(
                        KeyId.ofPublicKey(keys.currentKey().rawEncoding()).hex(),
                        o.record().keyId().hex(),
                        o.describe());
                accepted++;
            } else {
                // The readings of keys 0-2 it never received are reported as gaps at each handover.
                assertEquals(Reason.GAP, o.verdict().reason(), o.describe());
            }
        }
        assertEquals(List.of(1L, 2L, 3L), followed, "each missed rollover, in order");
        assertTrue(accepted >= 10, "the fourth key's readings: " + accepted);
    }

    @Test
    void nextKeyCertifiedByAnotherDeviceCaUnderSameRoot_refusedWithAlarm_noReadingOfThatKeyAccepted() throws Exception {
        SensorKeyDirectory keys = startSensor("b");
        startOperator(keys);

        List<Observation> seen = publish(40);

        int alarms = 0;
        int accepted = 0;
        for (Observation o : seen) {
            if (o.handover() != null) {
                assertEquals(
                        HandoverOutcome.UNCERTIFIED,
                        o.handover().outcome(),
                        o.verdict().detail());
                assertEquals(Reason.HANDOVER_REJECTED, o.verdict().reason());
                assertTrue(
                        o.verdict().detail().contains("another device CA"),
                        o.verdict().detail());
                alarms++;
            } else if (o.verdict().reason() == Reason.ACCEPTED) {
                assertTrue(o.verdict().index() < 1024 - SWITCH_AT, "only the first key's readings: " + o.describe());
                accepted++;
            } else {
                assertEquals(Reason.UNKNOWN_KEY, o.verdict().reason(), o.describe());
            }
        }
        assertEquals(1, alarms);
        assertEquals(1024 - SWITCH_AT, accepted, "every reading of the first key, none of the next");
        assertEquals(1, keys.generation(), "the sensor rolled over (its chain is what the operator refused)");
        try (var files = Files.list(dir.resolve("chains"))) {
            assertEquals(0, files.filter(f -> f.toString().endsWith(".pqcc")).count());
        }
    }
}
