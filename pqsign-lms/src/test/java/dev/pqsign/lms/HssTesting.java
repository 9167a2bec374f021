package dev.pqsign.lms;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.testing.MemoryStateStore;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Shared helpers of this package's tests. */
final class HssTesting {
    private HssTesting() {}

    static HssParameterSet set(String name) {
        return HssParameterSet.byName(name).orElseThrow(() -> new IllegalArgumentException(name));
    }

    static LmsParameterSet lms(String name) {
        return LmsParameterSet.byName(name).orElseThrow(() -> new IllegalArgumentException(name));
    }

    /** A key with SEED bytes all {@code seedByte} and I bytes all {@code seedByte + 1}. */
    static HssPrivateKey key(HssParameterSet p, int seedByte) {
        byte[] seed = new byte[p.top().n()];
        byte[] id = new byte[16];
        Arrays.fill(seed, (byte) seedByte);
        Arrays.fill(id, (byte) (seedByte + 1));
        return HssKeyGenerator.fromSeed(p, seed, id, 2, null);
    }

    static byte[] msg(long i) {
        return ("reading " + i).getBytes(StandardCharsets.UTF_8);
    }

    /** An in-memory store holding {@code key}'s state with range [next, end). */
    static MemoryStateStore storeAt(HssPrivateKey key, long next, long end) {
        return MemoryStateStore.holding(
                HssKeyState.fresh(key).withRange(next, end).encode());
    }

    /** The signature a fresh signer makes at {@code index} (its own store, positioned there). */
    static byte[] signAt(HssPrivateKey key, long index, byte[] msg) {
        try (HssStatefulSigner s = HssStatefulSigner.open(
                storeAt(key, index, key.parameterSet().maxSignatures()),
                HssSignerOptions.defaults().withThreads(2))) {
            IndexedSignature sig = s.signIndexed(i -> msg);
            if (sig.index() != index) {
                throw new AssertionError("signed at " + sig.index() + ", not " + index);
            }
            return sig.signature();
        }
    }
}
