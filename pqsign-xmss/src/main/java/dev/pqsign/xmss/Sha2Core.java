package dev.pqsign.xmss;

import dev.pqsign.xmss.internal.XmssHashCounter;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 / SHA-512 through the JDK's {@link MessageDigest}, which HotSpot compiles to the CPU's SHA
 * instructions where present. Mid-states are {@code MessageDigest} clones taken after a full block.
 */
final class Sha2Core extends HashCore {
    private final MessageDigest md;
    private final int blockLen;
    private final int lengthFieldLen;
    private final int digestLen;
    private final int n;
    private final byte[] full;

    Sha2Core(String algorithm, int blockLen, int digestLen, int n) {
        try {
            this.md = MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is not available in this JDK", e);
        }
        this.blockLen = blockLen;
        this.lengthFieldLen = blockLen == 64 ? 8 : 16;
        this.digestLen = digestLen;
        this.n = n;
        this.full = new byte[digestLen];
    }

    private int blocks(int len) {
        return (len + lengthFieldLen) / blockLen + 1;
    }

    @Override
    void hash(byte[] in, int len, byte[] out, int outOff) {
        md.update(in, 0, len);
        digestInto(md, out, outOff);
        if (XmssHashCounter.enabled()) {
            XmssHashCounter.add(1, blocks(len));
        }
    }

    private void digestInto(MessageDigest d, byte[] out, int outOff) {
        try {
            if (n == digestLen) {
                d.digest(out, outOff, digestLen);
            } else {
                d.digest(full, 0, digestLen);
                System.arraycopy(full, 0, out, outOff, n);
            }
        } catch (java.security.DigestException e) {
            throw new IllegalStateException("output buffer too small", e);
        }
    }

    @Override
    Object absorbPrefix(byte[] prefix, int len) {
        if (len % blockLen != 0) {
            return null;
        }
        try {
            MessageDigest copy = (MessageDigest) md.clone();
            copy.reset();
            copy.update(prefix, 0, len);
            if (XmssHashCounter.enabled()) {
                XmssHashCounter.add(0, len / blockLen);
            }
            return copy;
        } catch (CloneNotSupportedException e) {
            return null;
        }
    }

    @Override
    void hashAfterPrefix(Object midstate, byte[] in, int len, byte[] out, int outOff) {
        MessageDigest d;
        try {
            d = (MessageDigest) ((MessageDigest) midstate).clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
        d.update(in, 0, len);
        digestInto(d, out, outOff);
        // The prefix blocks were paid for once in absorbPrefix; only the remaining blocks count here.
        if (XmssHashCounter.enabled()) {
            XmssHashCounter.add(1, (len + lengthFieldLen) / blockLen + 1);
        }
    }

    @Override
    void discard(Object midstate) {
        if (midstate != null) {
            ((MessageDigest) midstate).reset();
        }
        md.reset();
    }

    private long streamed;

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
        digestInto(md, out, outOff);
        if (XmssHashCounter.enabled()) {
            XmssHashCounter.add(1, (streamed + lengthFieldLen) / blockLen + 1);
        }
    }
}
