package dev.pqsign.opcua;

import dev.pqsign.telemetry.operator.KeyHistory;
import dev.pqsign.telemetry.operator.Observation;
import dev.pqsign.telemetry.operator.ReceivedValue;
import dev.pqsign.telemetry.operator.SensorVerification;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** Judges every record-node value with the sensor's {@link SensorVerification} and reports what it came to. */
final class VerifyingConsumer implements RecordSubscription.Consumer {
    private final SensorVerification sensor;
    private final Consumer<Observation> observations;

    VerifyingConsumer(SensorVerification sensor, Consumer<Observation> observations) {
        this.sensor = sensor;
        this.observations = observations;
    }

    @Override
    public Optional<Instant> backfillFrom() {
        return sensor.backfillFrom();
    }

    /** A page of the history: judged together, reported once the marks of all it accepted are durable. */
    @Override
    public int acceptAll(List<ReceivedValue> values, KeyHistory history) {
        List<SensorVerification.Judgement> judged = sensor.judgeAll(values, history);
        for (SensorVerification.Judgement j : judged) {
            for (Observation o : j.observations()) {
                observations.accept(o);
            }
            if (j.deferred()) {
                return judged.size() - 1;
            }
        }
        return judged.size();
    }

    @Override
    public boolean accept(ReceivedValue value, KeyHistory history) {
        SensorVerification.Judgement j = sensor.judge(value, history);
        for (Observation o : j.observations()) {
            observations.accept(o);
        }
        return !j.deferred();
    }
}
