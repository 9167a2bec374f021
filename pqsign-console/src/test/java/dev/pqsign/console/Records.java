package dev.pqsign.console;

import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.VerdictEvent;
import java.time.Instant;
import java.util.Locale;

/** Real signed records (Ed25519 test double) and the verdict events an operator would emit for them. */
public final class Records {

    public final Ed25519TestDouble key = Ed25519TestDouble.generate();
    private long sequence;

    public SignedRecord record(String reading, long index) throws Exception {
        String set = Ed25519TestDouble.PARAMS.setName();
        SignedReading unsigned = new SignedReading(reading, index, new byte[1]);
        byte[] sig = key.signer().sign(unsigned.message(set));
        Instant now = Instant.now();
        return SignedRecord.of(
                key.keyId(),
                set,
                new SignedReading(reading, index, sig),
                now,
                ++sequence,
                1000,
                System.nanoTime(),
                System.nanoTime());
    }

    public VerdictEvent event(String sensor, Verdict.Reason reason, String reading, long index) throws Exception {
        return VerdictEvent.of(
                sensor,
                new Verdict(reason, index, reason.name().toLowerCase(Locale.ROOT)),
                record(reading, index),
                Instant.now());
    }

    public VerdictEvent gap(String sensor, long from, long to) {
        return VerdictEvent.gap(sensor, key.keyId(), new Verdict.Gap(from, to), Instant.now());
    }
}
