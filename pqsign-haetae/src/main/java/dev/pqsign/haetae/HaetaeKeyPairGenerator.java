package dev.pqsign.haetae;

import dev.pqsign.core.Secrets;
import java.security.SecureRandom;
import java.util.Objects;

/**
 * Generates HAETAE key pairs, either from a {@link SecureRandom} (32 bytes) or from an explicit
 * 32-byte seed (KeyGenInternal: the same seed always gives the same keys, identical to the
 * reference's {@code crypto_sign_keypair_internal}).
 */
public final class HaetaeKeyPairGenerator {
    /** Length of the key generation seed. */
    public static final int SEED_BYTES = HaetaeParameterSet.SEEDBYTES;

    private HaetaeKeyPairGenerator() {}

    /**
     * A fresh key pair from 32 bytes of {@code random}, computed by {@link HaetaeEngine#FAST}.
     *
     * @param params HAETAE-2, -3 or -5
     * @param random the source of the key generation seed
     * @return the new key pair
     */
    public static HaetaeKeyPair generate(HaetaeParameterSet params, SecureRandom random) {
        return generate(params, random, HaetaeEngine.FAST);
    }

    /**
     * As {@link #generate(HaetaeParameterSet, SecureRandom)} with a chosen engine.
     *
     * @param params HAETAE-2, -3 or -5
     * @param random the source of the key generation seed
     * @param engine the engine that computes the keys (both give the same bytes)
     * @return the new key pair
     */
    public static HaetaeKeyPair generate(HaetaeParameterSet params, SecureRandom random, HaetaeEngine engine) {
        byte[] seed = new byte[SEED_BYTES];
        try {
            random.nextBytes(seed);
            return fromSeed(params, seed, engine);
        } finally {
            Secrets.wipe(seed);
        }
    }

    /**
     * The key pair determined by a 32-byte seed, computed by {@link HaetaeEngine#FAST}.
     *
     * @param params HAETAE-2, -3 or -5
     * @param seed the {@value #SEED_BYTES}-byte key generation seed; not modified
     * @return the key pair
     * @throws IllegalArgumentException if {@code seed} is not {@value #SEED_BYTES} bytes long
     */
    public static HaetaeKeyPair fromSeed(HaetaeParameterSet params, byte[] seed) {
        return fromSeed(params, seed, HaetaeEngine.FAST);
    }

    /**
     * The key pair determined by a 32-byte seed, computed by {@code engine} (both give the same bytes).
     *
     * @param params HAETAE-2, -3 or -5
     * @param seed the {@value #SEED_BYTES}-byte key generation seed; not modified
     * @param engine the engine that computes the keys
     * @return the key pair
     * @throws IllegalArgumentException if {@code seed} is not {@value #SEED_BYTES} bytes long
     */
    public static HaetaeKeyPair fromSeed(HaetaeParameterSet params, byte[] seed, HaetaeEngine engine) {
        Objects.requireNonNull(params, "params");
        if (seed.length != SEED_BYTES) {
            throw new IllegalArgumentException(
                    "HAETAE key generation seed must be " + SEED_BYTES + " bytes, got " + seed.length);
        }
        byte[] pk = new byte[params.pkBytes];
        byte[] sk = new byte[params.skBytes];
        engine.keyPair(params, seed, pk, sk);
        HaetaePrivateKey priv = HaetaePrivateKey.trusted(params, sk);
        return new HaetaeKeyPair(priv.publicKey(), priv);
    }
}
