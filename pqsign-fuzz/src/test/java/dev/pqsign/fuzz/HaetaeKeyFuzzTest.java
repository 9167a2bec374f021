package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaePrivateKey;
import dev.pqsign.haetae.HaetaePublicKey;
import dev.pqsign.haetae.HaetaeSampler;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.haetae.HaetaeVerifier;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * HAETAE public and private key parsing (docs/formats/haetae-keys.md, haetae-private-key.md).
 *
 * <p>Input: a mode byte, then the key bytes. Even mode: a public key (set found by length). It must
 * parse or throw {@link KeyFormatException} (the only documented exception); a parsed key must
 * re-encode to the same bytes, and verifying the set's seed signature under it must give the same
 * answer on both engines as BouncyCastle 1.87 under the same key bytes. Odd mode: a private key;
 * c = mode / 2 picks the set (c mod 3), the engine ((c / 3) mod 2) and the sampler ((c / 6) mod 2).
 * It must parse or throw {@link KeyFormatException}; a parsed key re-encodes to the same bytes and
 * must sign (fixed randomness) without an exception or a hang, giving a signature of the set's length.
 *
 * <p>Signing is almost all of this target's time, so a key is signed with only once per (set,
 * engine, sampler): the mode byte maps many values to the same choice, and libFuzzer repeats
 * inputs. Skipping the repeat cannot hide a finding: with the fixed message, context and
 * randomness, signing is a pure function of the set, engine, sampler and key bytes, so the repeat
 * would run exactly the signing that already ended with a signature of the right length (a throw
 * or a hang the first time is already a finding). The key is still parsed and re-encoded every time.
 */
class HaetaeKeyFuzzTest {
    /** Keys signed with at most remembered; when full the memory is emptied. */
    private static final int REMEMBERED = 1 << 16;

    private static final Set<ByteBuffer> SIGNED = new HashSet<>();
    private static final byte[][] SEED_SIGNATURES = new byte[FuzzKeys.HAETAE_SETS.size()][];

    private static synchronized byte[] seedSignature(HaetaeParameterSet set) {
        int i = FuzzKeys.HAETAE_SETS.indexOf(set);
        if (SEED_SIGNATURES[i] == null) {
            SEED_SIGNATURES[i] = SeedCorpus.haetaeSign(set, HaetaeSampler.V1_1_2, 0);
        }
        return SEED_SIGNATURES[i];
    }

    @FuzzTest
    void fuzz(byte[] data) {
        if (data.length < 1) {
            return;
        }
        int mode = data[0] & 0xff;
        byte[] key = Arrays.copyOfRange(data, 1, data.length);
        if (mode % 2 == 0) {
            publicKey(key);
        } else {
            int choice = mode / 2;
            privateKey(
                    FuzzKeys.HAETAE_SETS.get(choice % 3),
                    HaetaeEngine.values()[(choice / 3) % 2],
                    HaetaeSampler.values()[(choice / 6) % 2],
                    key);
        }
    }

    private static void publicKey(byte[] encoded) {
        HaetaePublicKey pk;
        try {
            pk = HaetaePublicKey.fromEncoded(encoded);
        } catch (KeyFormatException expected) {
            return;
        }
        assertArrayEquals(encoded, pk.getEncoded(), "a parsed public key re-encodes to its input");
        HaetaeParameterSet set = pk.parameterSet();
        byte[] sig = seedSignature(set);
        boolean theirs = new BouncyCastle.Haetae(pk).verify(FuzzKeys.MESSAGE, FuzzKeys.CONTEXT, sig);
        for (HaetaeEngine engine : HaetaeEngine.values()) {
            boolean ours = new HaetaeVerifier(pk, FuzzKeys.CONTEXT, engine).verify(FuzzKeys.MESSAGE, sig);
            assertEquals(
                    theirs,
                    ours,
                    engine + " engine and BouncyCastle disagree on the " + set
                            + " seed signature under a changed public key");
        }
    }

    private static void privateKey(HaetaeParameterSet set, HaetaeEngine engine, HaetaeSampler sampler, byte[] encoded) {
        HaetaePrivateKey sk;
        try {
            sk = HaetaePrivateKey.fromEncoded(set, encoded);
        } catch (KeyFormatException expected) {
            return;
        }
        byte[] again = sk.getEncoded();
        assertArrayEquals(encoded, again, "a parsed private key re-encodes to its input");
        Arrays.fill(again, (byte) 0);
        assertSame(set, sk.parameterSet());
        if (!firstSigning(set, engine, sampler, encoded)) {
            sk.destroy();
            return;
        }
        HaetaeSigner signer = new HaetaeSigner(
                sk, FuzzKeys.CONTEXT, sampler, engine, new DeterministicRandom("haetae key fuzz randomness"));
        assertEquals(set.signatureBytes(), signer.sign(FuzzKeys.MESSAGE).length);
        sk.destroy();
    }

    /** Whether no earlier input signed with this key under the same choices (remembers it if so). */
    private static synchronized boolean firstSigning(
            HaetaeParameterSet set, HaetaeEngine engine, HaetaeSampler sampler, byte[] encoded) {
        MessageDigest d;
        try {
            d = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        d.update((byte) set.ordinal());
        d.update((byte) engine.ordinal());
        d.update((byte) sampler.ordinal());
        d.update(encoded);
        if (SIGNED.size() >= REMEMBERED) {
            SIGNED.clear();
        }
        return SIGNED.add(ByteBuffer.wrap(d.digest()));
    }
}
