package dev.pqsign.haetae.internal;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * NIST SP 800-90A AES-256 CTR_DRBG without derivation function and without prediction resistance,
 * exactly as the NIST PQC KAT generators use it ({@code randombytes_init} / {@code randombytes}).
 * Deterministic test-vector randomness only; never use it as a key source.
 */
final class CtrDrbg {
    private final byte[] key = new byte[32];
    private final byte[] v = new byte[16];
    private final byte[] block = new byte[16];
    private final Cipher aes;

    /** Instantiates from 48 bytes of entropy input (no personalisation string). */
    CtrDrbg(byte[] entropy48) {
        try {
            aes = Cipher.getInstance("AES/ECB/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES is not available", e);
        }
        reseed(entropy48);
    }

    /** Re-instantiates the generator from 48 bytes of entropy input. */
    public void reseed(byte[] entropy48) {
        if (entropy48.length != 48) {
            throw new IllegalArgumentException("CTR_DRBG seed must be 48 bytes, got " + entropy48.length);
        }
        Arrays.fill(key, (byte) 0);
        Arrays.fill(v, (byte) 0);
        update(entropy48);
    }

    /**
     * Fills {@code out} with output and updates the state. Even a zero-length request updates the
     * state, as in the reference generator (the KAT files depend on it).
     */
    public void nextBytes(byte[] out) {
        nextBytes(out, 0, out.length);
    }

    /** As {@link #nextBytes(byte[])} for {@code out[off..off+len)}. */
    public void nextBytes(byte[] out, int off, int len) {
        setKey();
        while (len > 0) {
            increment();
            encrypt(v, block);
            int n = Math.min(16, len);
            System.arraycopy(block, 0, out, off, n);
            off += n;
            len -= n;
        }
        update(null);
    }

    private void update(byte[] provided) {
        setKey();
        byte[] temp = new byte[48];
        for (int i = 0; i < 3; i++) {
            increment();
            encrypt(v, block);
            System.arraycopy(block, 0, temp, 16 * i, 16);
        }
        if (provided != null) {
            for (int i = 0; i < 48; i++) {
                temp[i] ^= provided[i];
            }
        }
        System.arraycopy(temp, 0, key, 0, 32);
        System.arraycopy(temp, 32, v, 0, 16);
    }

    private void increment() {
        for (int j = 15; j >= 0; j--) {
            v[j]++;
            if (v[j] != 0) {
                break;
            }
        }
    }

    private void setKey() {
        try {
            aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-256 key rejected", e);
        }
    }

    private void encrypt(byte[] in, byte[] out) {
        try {
            aes.doFinal(in, 0, 16, out, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES failed", e);
        }
    }
}
