package dev.pqsign.demo;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.IndexedSigner;
import dev.pqsign.core.ParameterSet;
import dev.pqsign.core.StatefulSigner;
import dev.pqsign.telemetry.ReadingMessage;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SignedReading;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * The demo's attacker: a sensor key whose signer lies once when told to, so that the sensor, which
 * publishes exactly what its signer signed, puts out a tampered or a replayed reading that the
 * operator must reject.
 *
 * <p>The sensor signs with {@link #key()}, the honest key behind a decorating signer. A fault is
 * armed for the one publication made through {@code publish} (the sensor's ordinary publish method)
 * on the calling thread only: other threads publishing at the same time sign honestly. A fault that
 * the publication did not consume (the sensor signed with another key) fails the call, so an honest
 * reading is never counted as an injected fault. The decorating signer is a {@link StatefulSigner}
 * when the honest one is, so the sensor still publishes the key's remaining signatures.
 */
final class FaultInjector {

    /** What the signer returns instead of signing the message the sensor built. */
    @FunctionalInterface
    private interface Fault {
        IndexedSignature sign(IndexedSigner honest);
    }

    private final SensorKey honest;
    private final SensorKey key;
    /** The fault armed by each thread: one per injector, since a fault belongs to this key only. */
    @SuppressWarnings("ThreadLocalUsage")
    private final ThreadLocal<Fault> armed = new ThreadLocal<>();

    /** A fault injector for the sensor that would sign with {@code honest}. */
    FaultInjector(SensorKey honest) {
        this.honest = Objects.requireNonNull(honest, "honest");
        IndexedSigner signer = honest.signer();
        IndexedSigner faulty =
                signer instanceof StatefulSigner st ? new FaultyStatefulSigner(st) : new FaultySigner(signer);
        this.key = new SensorKey(faulty, honest.keyId(), honest.certificateDer());
    }

    /** The key to start the sensor with: it signs honestly unless a fault is armed. */
    SensorKey key() {
        return key;
    }

    /**
     * A reading changed on the way, as by an attacker on the path: {@code reading} is signed under a
     * fresh index of the honest key and published with the last character of its text changed in
     * one bit, the signature of the original unchanged (a bad signature to the operator).
     */
    <P> P tampered(String reading, Function<String, P> publish) {
        byte[] original = reading.getBytes(StandardCharsets.UTF_8);
        String setName = honest.parameterSetName();
        return inject(
                signer -> signer.signIndexed(index -> ReadingMessage.encode(setName, index, original)),
                tamperedText(reading),
                publish);
    }

    /**
     * A reading published before, sent again: its text, index and signature unchanged, no index of
     * the honest key reserved (a replay to the operator).
     */
    <P> P replayed(SignedReading reading, Function<String, P> publish) {
        IndexedSignature earlier = new IndexedSignature(reading.index(), reading.signature());
        return inject(signer -> earlier, reading.reading(), publish);
    }

    private static String tamperedText(String reading) {
        char[] c = reading.toCharArray();
        if (c.length == 0) {
            return "x";
        }
        c[c.length - 1] = (char) (c[c.length - 1] ^ 1);
        return new String(c);
    }

    private <P> P inject(Fault fault, String text, Function<String, P> publish) {
        armed.set(fault);
        try {
            P published = publish.apply(text);
            if (armed.get() != null) {
                throw new IllegalStateException("the publication did not sign with the fault injector's key");
            }
            return published;
        } finally {
            armed.remove();
        }
    }

    private IndexedSignature signOrInject(IndexedSigner signer, LongFunction<byte[]> messageForIndex) {
        Fault fault = armed.get();
        if (fault == null) {
            return signer.signIndexed(messageForIndex);
        }
        armed.remove();
        return fault.sign(signer);
    }

    private final class FaultySigner implements IndexedSigner {
        private final IndexedSigner signer;

        FaultySigner(IndexedSigner signer) {
            this.signer = signer;
        }

        @Override
        public IndexedSignature signIndexed(LongFunction<byte[]> messageForIndex) {
            return signOrInject(signer, messageForIndex);
        }

        @Override
        public ParameterSet parameterSet() {
            return signer.parameterSet();
        }
    }

    private final class FaultyStatefulSigner implements StatefulSigner {
        private final StatefulSigner signer;

        FaultyStatefulSigner(StatefulSigner signer) {
            this.signer = signer;
        }

        @Override
        public IndexedSignature signIndexed(LongFunction<byte[]> messageForIndex) {
            return signOrInject(signer, messageForIndex);
        }

        @Override
        public byte[] sign(byte[] message) {
            return signer.sign(message);
        }

        @Override
        public ParameterSet parameterSet() {
            return signer.parameterSet();
        }

        @Override
        public long remaining() {
            return signer.remaining();
        }

        @Override
        public long nextIndex() {
            return signer.nextIndex();
        }

        @Override
        public boolean isUsable() {
            return signer.isUsable();
        }

        @Override
        public void close() {
            signer.close();
        }
    }
}
