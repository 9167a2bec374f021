package dev.pqsign.lms;

import dev.pqsign.lms.internal.LmsHashCounter;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.bouncycastle.crypto.digests.SHAKEDigest;

/**
 * One thread's hash function of an LMS family, with n-byte output: one-shot {@link #hash} for the
 * short fixed-layout inputs (chain steps, tree nodes, seed derivations) and a streaming
 * {@link #start}/{@link #update}/{@link #finish} for messages and one-time public keys.
 *
 * <p>SHA-256 goes through the JDK's {@link MessageDigest}, which HotSpot compiles to the CPU's SHA
 * instructions where present; SHAKE256 through BouncyCastle (the JDK 17 has none). Not thread-safe.
 */
abstract class LmsHasher {
    final int n;

    private LmsHasher(int n) {
        this.n = n;
    }

    static LmsHasher create(LmsHash hash) {
        return hash.isShake() ? new Shake(hash.n()) : new Sha256(hash.n());
    }

    /** Writes the n-byte hash of {@code in[0, len)} to {@code out[outOff, outOff + n)}. */
    abstract void hash(byte[] in, int len, byte[] out, int outOff);

    abstract void start();

    abstract void update(byte[] in, int off, int len);

    /** Finishes the streamed hash into {@code out[outOff, outOff + n)}. */
    abstract void finish(byte[] out, int outOff);

    private static final class Sha256 extends LmsHasher {
        private final MessageDigest md;
        private final byte[] full = new byte[32];
        private long streamed;

        Sha256(int n) {
            super(n);
            try {
                this.md = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is not available in this JDK", e);
            }
        }

        @Override
        void hash(byte[] in, int len, byte[] out, int outOff) {
            md.update(in, 0, len);
            digestInto(out, outOff);
            if (LmsHashCounter.enabled()) {
                LmsHashCounter.add(1, (len + 8) / 64 + 1);
            }
        }

        private void digestInto(byte[] out, int outOff) {
            try {
                if (n == 32) {
                    md.digest(out, outOff, 32);
                } else {
                    md.digest(full, 0, 32);
                    System.arraycopy(full, 0, out, outOff, n);
                }
            } catch (DigestException e) {
                throw new IllegalStateException("output buffer too small", e);
            }
        }

        @Override
        void start() {
            md.reset();
            streamed = 0;
        }

        @Override
        void update(byte[] in, int off, int len) {
            md.update(in, off, len);
            streamed += len;
        }

        @Override
        void finish(byte[] out, int outOff) {
            digestInto(out, outOff);
            if (LmsHashCounter.enabled()) {
                LmsHashCounter.add(1, (streamed + 8) / 64 + 1);
            }
        }
    }

    private static final class Shake extends LmsHasher {
        private static final int RATE = 136;
        private final SHAKEDigest shake = new SHAKEDigest(256);
        private long streamed;

        Shake(int n) {
            super(n);
        }

        @Override
        void hash(byte[] in, int len, byte[] out, int outOff) {
            shake.update(in, 0, len);
            shake.doFinal(out, outOff, n);
            if (LmsHashCounter.enabled()) {
                LmsHashCounter.add(1, len / RATE + 1);
            }
        }

        @Override
        void start() {
            shake.reset();
            streamed = 0;
        }

        @Override
        void update(byte[] in, int off, int len) {
            shake.update(in, off, len);
            streamed += len;
        }

        @Override
        void finish(byte[] out, int outOff) {
            shake.doFinal(out, outOff, n);
            if (LmsHashCounter.enabled()) {
                LmsHashCounter.add(1, streamed / RATE + 1);
            }
        }
    }
}
