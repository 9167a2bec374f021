package dev.pqsign.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.telemetry.Verdict.Reason;
import dev.pqsign.telemetry.operator.Observation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * What a key rollover test over real OPC UA on loopback opens and sees: its sensor server, the other
 * parts it opened (all closed by {@link #closeAll} when the test ends, the sensor server first, the
 * rest in reverse order), and the operator's observations, taken up to the verdict on a given publication.
 */
final class RolloverRig {
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final BlockingQueue<Observation> observations = new LinkedBlockingQueue<>();
    private SensorServer sensor;

    /** Closes {@code part} when the test ends, before everything opened earlier; returns it. */
    <T extends AutoCloseable> T opened(T part) {
        opened.add(part);
        return part;
    }

    /** Makes {@code server} the sensor server, closed first when the test ends; returns it. */
    SensorServer sensor(SensorServer server) {
        sensor = server;
        return server;
    }

    /** The sensor server now running. */
    SensorServer sensor() {
        return sensor;
    }

    /** Stops the sensor server now (its close waits until its notifications are sent). */
    void closeSensor() {
        sensor.close();
        sensor = null;
    }

    /** The operator's listener: queues every observation. */
    void observe(Observation o) {
        observations.add(o);
    }

    /** The observations queued and not yet taken. */
    BlockingQueue<Observation> observations() {
        return observations;
    }

    /**
     * Takes the queued observations up to and including the one for publication {@code lastSequence},
     * failing if the next one takes longer than {@code patience} to arrive.
     */
    List<Observation> takeUntil(long lastSequence, Duration patience) throws InterruptedException {
        List<Observation> seen = new ArrayList<>();
        while (true) {
            Observation o = observations.poll(patience.toMillis(), TimeUnit.MILLISECONDS);
            assertNotNull(o, "no observation for publication " + lastSequence + " after " + seen);
            seen.add(o);
            if (o.sequence() == lastSequence) {
                return seen;
            }
        }
    }

    /**
     * What the operator made of {@code seen} when it judged nothing but followed handovers and
     * accepted readings.
     *
     * @param followed the sequence (new key generation) of each handover, in the order followed
     * @param acceptedByKey the accepted indices of each key (by key id in hex), in the order accepted
     */
    record Followed(List<Long> followed, Map<String, List<Long>> acceptedByKey) {

        /** Fails unless every observation in {@code seen} is a followed handover or an accepted reading. */
        static Followed from(List<Observation> seen) {
            List<Long> followed = new ArrayList<>();
            Map<String, List<Long>> accepted = new HashMap<>();
            for (Observation o : seen) {
                if (o.handover() != null) {
                    assertEquals(
                            HandoverOutcome.FOLLOWED,
                            o.handover().outcome(),
                            o.verdict().detail());
                    followed.add(o.handover().handover().statement().sequence());
                } else {
                    assertEquals(Reason.ACCEPTED, o.verdict().reason(), o.describe());
                    accepted.computeIfAbsent(o.record().keyId().hex(), k -> new ArrayList<>())
                            .add(o.verdict().index());
                }
            }
            return new Followed(followed, accepted);
        }

        /** Fails unless each key's readings were accepted at every index from 0 on, in order; returns their count. */
        int assertEveryIndexInOrder() {
            int total = 0;
            for (List<Long> indices : acceptedByKey.values()) {
                for (int i = 0; i < indices.size(); i++) {
                    assertEquals(i, indices.get(i), "every index of every key, in order");
                }
                total += indices.size();
            }
            return total;
        }
    }

    /** Closes {@code parts} in reverse order. */
    static void closeInReverse(List<AutoCloseable> parts) throws Exception {
        for (int i = parts.size() - 1; i >= 0; i--) {
            parts.get(i).close();
        }
    }

    /** Closes the sensor server, then everything {@link #opened} in reverse order; for {@code @AfterEach}. */
    void closeAll() throws Exception {
        if (sensor != null) {
            sensor.close();
        }
        closeInReverse(opened);
    }
}
