package dev.pqsign.xmss;

import dev.pqsign.xmss.internal.XmssHashCounter;
import org.bouncycastle.crypto.digests.SHAKEDigest;

/** SHAKE128 / SHAKE256 with n-byte output (BouncyCastle; the JDK 17 has no SHAKE digest). */
final class ShakeCore extends HashCore {
    private final SHAKEDigest shake;
    private final int rate;
    private final int n;
    private long streamed;

    ShakeCore(int bitStrength, int n) {
        this.shake = new SHAKEDigest(bitStrength);
        this.rate = 200 - 2 * (bitStrength / 8);
        this.n = n;
    }

    @Override
    void hash(byte[] in, int len, byte[] out, int outOff) {
        shake.update(in, 0, len);
        shake.doFinal(out, outOff, n);
        if (XmssHashCounter.enabled()) {
            XmssHashCounter.add(1, len / rate + 1);
        }
    }

    @Override
    Object absorbPrefix(byte[] prefix, int len) {
        // Keccak absorbs whole 136/168-byte blocks; XMSS prefixes (2n bytes) never fill one, so a
        // saved state would save nothing.
        return null;
    }

    @Override
    void hashAfterPrefix(Object midstate, byte[] in, int len, byte[] out, int outOff) {
        throw new UnsupportedOperationException("SHAKE cores keep no mid-state");
    }

    @Override
    void discard(Object midstate) {
        shake.reset();
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
        if (XmssHashCounter.enabled()) {
            XmssHashCounter.add(1, streamed / rate + 1);
        }
    }
}
