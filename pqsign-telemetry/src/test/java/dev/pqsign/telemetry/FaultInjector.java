package dev.pqsign.telemetry;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.IndexedSigner;
import dev.pqsign.core.ParameterSet;
import dev.pqsign.core.StatefulSigner;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * Test fault injection for a sensor: a key whose signer lies once when told to, so that the sensor,
 * which publishes exactly what its signer signed, puts out a tampered or replayed reading that an
 * operator must reject.
 *
 * <p>The sensor signs with {@link #key()} (the honest key behind a decorating signer); a fault is
 * armed for one publication made through {@code publish} (the sensor's ordinary publish method) on
 * the calling thread only, so other threads publishing at the same time sign honestly. A fault the
 * publication did not consume (the sensor signed with another key, say after a rollover) fails the
 * call instead of passing an honest reading off as a fault.
 *
 * <p>The decorating signer is a {@link StatefulSigner} when the honest one is, so the sensor still
 * sees the key's remaining signatures; a {@link SequencedSigner}'s next index is not visible through
 * it (a sensor with a history then announces no burned indices).
 */
public final class FaultInjector {

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

    /**
     * A fault injector for one sensor key.
     *
     * @param honest the key the sensor would sign with; it keeps signing through {@link #key()}
     */
    public FaultInjector(SensorKey honest) {
        this.honest = Objects.requireNonNull(honest, "honest");
        IndexedSigner signer = honest.signer();
        IndexedSigner faulty =
                signer instanceof StatefulSigner st ? new FaultyStatefulSigner(st) : new FaultySigner(signer);
        this.key = new SensorKey(faulty, honest.keyId(), honest.certificateDer());
    }

    /**
     * The key to start the sensor with: the honest key, signing honestly unless a fault is armed.
     *
     * @return the sensor key with the decorating signer
     */
    public SensorKey key() {
        return key;
    }

    /**
     * A reading changed on its way: signs {@code reading} under a fresh index of the honest key, and
     * has {@code publish} put it out with one bit of its text flipped ({@link #tamperedText}), the
     * signature of the original unchanged. An operator must reject it as a bad signature.
     *
     * @param <P> what {@code publish} returns
     * @param reading the reading text that is signed
     * @param publish the sensor's publish method, e.g. {@code sensor::publish}
     * @return what {@code publish} returned for the tampered reading
     */
    public <P> P tampered(String reading, Function<String, P> publish) {
        byte[] original = reading.getBytes(StandardCharsets.UTF_8);
        String setName = honest.parameterSetName();
        return inject(
                signer -> signer.signIndexed(index -> ReadingMessage.encode(setName, index, original)),
                tamperedText(reading),
                publish);
    }

    /**
     * A reading signed elsewhere (replayed, reordered, moved to another index, or with a forged
     * signature): has {@code publish} put out its text with its index and signature unchanged,
     * reserving no index of the honest key.
     *
     * @param <P> what {@code publish} returns
     * @param reading the signed reading to publish as is
     * @param publish the sensor's publish method, e.g. {@code sensor::publish}
     * @return what {@code publish} returned for it
     */
    public <P> P signed(SignedReading reading, Function<String, P> publish) {
        IndexedSignature canned = new IndexedSignature(reading.index(), reading.signature());
        return inject(signer -> canned, reading.reading(), publish);
    }

    /**
     * The text of a tampered reading: the last character with its lowest bit flipped ({@code "x"}
     * for the empty reading).
     *
     * @param reading the original text
     * @return the changed text, as long as the original
     */
    public static String tamperedText(String reading) {
        char[] c = reading.toCharArray();
        if (c.length == 0) {
            return "x";
        }
        c[c.length - 1] = (char) (c[c.length - 1] ^ 1);
        return new String(c);
    }

    /**
     * A copy of {@code reading} with one bit of its text changed ({@link #tamperedText}).
     *
     * @param reading a signed reading
     * @return the copy, its index and signature unchanged (so it no longer verifies)
     */
    public static SignedReading withTamperedReading(SignedReading reading) {
        return new SignedReading(
                tamperedText(reading.reading()),
                reading.index(),
                reading.signature().clone());
    }

    private <P> P inject(Fault fault, String text, Function<String, P> publish) {
        armed.set(fault);
        try {
            P published = publish.apply(text);
            if (armed.get() != null) {
                throw new IllegalStateException("the publication did not sign with this injector's key");
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
