package dev.pqsign.xmss;

import dev.pqsign.core.Digests;
import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Secrets;
import dev.pqsign.core.internal.IndexRange;
import dev.pqsign.core.internal.KeyStateFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The persisted private state of an XMSS / XMSS^MT key: the secret material plus the range
 * {@code [nextIndex, endIndex)} of indices this key file may still use. Immutable.
 *
 * <p>Binary format (big-endian; documented in docs/formats/xmss-state.md):
 * <pre>
 * 0        4  magic "PQXS"
 * 4        1  format version (1)
 * 5        1  family: 1 = XMSS, 2 = XMSS^MT
 * 6        1  WOTS+ derivation: 1 = SP 800-208, 2 = RFC 8391
 * 7        1  n
 * 8        4  type code
 * 12       8  next index (lowest index not yet burned)
 * 20       8  end index (exclusive; 2^h for a key that was never split)
 * 28       n  SK_SEED
 * 28+n     n  SK_PRF
 * 28+2n    n  PUB_SEED
 * 28+3n    n  root
 * 28+4n   16  check: first 16 bytes of SHA-256 over bytes [0, 28+4n)
 * </pre>
 * 172 bytes for n = 32. The caches that make signing fast are rebuilt from the seeds when the key is
 * loaded and are never persisted.
 */
public final class XmssKeyState {
    static final byte[] MAGIC = {'P', 'Q', 'X', 'S'};
    static final int VERSION = 1;
    private static final int HEADER = 28;
    private static final int CHECK = 16;

    /** The view of this format that the shared reservation and split machinery works through. */
    static final KeyStateFormat<XmssKeyState> FORMAT = new Format();

    private final XmssPrivateKey key;
    private final IndexRange range;

    private XmssKeyState(XmssPrivateKey key, long nextIndex, long endIndex) {
        this(key, IndexRange.of(nextIndex, endIndex, key.parameterSet().maxSignatures()));
    }

    private XmssKeyState(XmssPrivateKey key, IndexRange range) {
        this.key = key;
        this.range = range;
    }

    /**
     * The state of a freshly generated key: every index 0 .. 2^h - 1 available. To store it, prefer
     * {@link XmssStatefulSigner#create}. Store it once: two fresh states of one key would hand out the
     * same indices (only the benchmarks, whose signatures are thrown away, do that on purpose).
     *
     * @param key a key just made by {@link XmssKeyGenerator}
     * @return the state with range [0, 2^h)
     * @throws IllegalArgumentException if {@code key} was read from a key state: some of its indices
     *     may be used already, and a fresh state would hand them out again
     * @throws IllegalStateException if {@code key} was destroyed
     */
    public static XmssKeyState fresh(XmssPrivateKey key) {
        key.checkNotDestroyed();
        if (key.fromState()) {
            throw new IllegalArgumentException("a key read from a key state cannot start a fresh state at index 0 "
                    + "(its used indices would be reused); keep signing with its own state file");
        }
        return new XmssKeyState(key, 0, key.parameterSet().maxSignatures());
    }

    /**
     * The key's secret material (the same object for every state derived from this one).
     *
     * @return the private key
     */
    public XmssPrivateKey key() {
        return key;
    }

    /**
     * The lowest index not yet burned.
     *
     * @return the next index
     */
    public long nextIndex() {
        return range.next();
    }

    /**
     * The end of this file's range (exclusive).
     *
     * @return the end index: 2^h for a key that was never split
     */
    public long endIndex() {
        return range.end();
    }

    /**
     * Signatures left in this file's range.
     *
     * @return endIndex - nextIndex
     */
    public long remaining() {
        return range.remaining();
    }

    /**
     * This state with another next index. Package-private on purpose: only the signer (reserving, and
     * giving back an unused reservation it still owns, through {@link #FORMAT}) moves indices, and
     * {@link XmssKeySplit} divides them ({@link #split}).
     */
    XmssKeyState withNextIndex(long next) {
        return new XmssKeyState(key, next, range.end());
    }

    /** This key with another range (tests of this package set up states at given indices with it). */
    XmssKeyState withRange(long next, long end) {
        return new XmssKeyState(key, next, end);
    }

    /**
     * Divides the remaining range {@code [nextIndex, endIndex)} into {@code parts} disjoint,
     * contiguous, non-empty ranges of the same key, in index order. The sizes differ by at most one
     * (the first {@code remaining % parts} ranges are one longer). The first element is what this key
     * file shrinks to; the others are the states of new key files. This is a pure computation: to
     * split a key on disk safely use {@link XmssKeySplit}, which shrinks the original durably before
     * any other part exists; that is also why this method is not public.
     *
     * @throws KeyExhaustedException if no index is left to split
     * @throws IllegalArgumentException if {@code parts < 2} or {@code parts > remaining()}
     */
    List<XmssKeyState> split(int parts) {
        List<XmssKeyState> out = new ArrayList<>(parts);
        for (IndexRange r : range.split(parts)) {
            out.add(new XmssKeyState(key, r));
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * Encoded length for a set with output length n.
     *
     * @param n the set's security parameter in bytes
     * @return the state's length in bytes, 44 + 4n
     */
    public static int encodedLength(int n) {
        return HEADER + 4 * n + CHECK;
    }

    /**
     * The state file bytes (they contain the secret seeds: wipe them after writing).
     *
     * @return a new array of {@link #encodedLength(int)} bytes
     * @throws IllegalStateException if the key was destroyed
     */
    public byte[] encode() {
        key.checkNotDestroyed();
        XmssParameterSet p = key.parameterSet();
        int n = p.n();
        byte[] out = new byte[encodedLength(n)];
        System.arraycopy(MAGIC, 0, out, 0, 4);
        out[4] = VERSION;
        out[5] = (byte) (p.family() == XmssParameterSet.Family.XMSS ? 1 : 2);
        out[6] = (byte) key.derivation().code();
        out[7] = (byte) n;
        writeInt(out, 8, p.typeCode());
        writeLong(out, 12, range.next());
        writeLong(out, 20, range.end());
        System.arraycopy(key.skSeed(), 0, out, HEADER, n);
        System.arraycopy(key.skPrf(), 0, out, HEADER + n, n);
        System.arraycopy(key.publicKey().pubSeedRef(), 0, out, HEADER + 2 * n, n);
        System.arraycopy(key.publicKey().rootRef(), 0, out, HEADER + 3 * n, n);
        System.arraycopy(check(out, HEADER + 4 * n), 0, out, HEADER + 4 * n, CHECK);
        return out;
    }

    /**
     * Decodes a state file. Every field is checked before use; the message says what is wrong (never
     * what the secret bytes are).
     *
     * @param b the state file's content; not modified
     * @return the decoded state
     * @throws KeyFormatException if the bytes are not a valid pqsign XMSS state of a known set
     */
    public static XmssKeyState decode(byte[] b) {
        if (b.length < HEADER) {
            throw new KeyFormatException(
                    "too short for an XMSS key state: " + b.length + " bytes, need at least " + HEADER);
        }
        if (!Arrays.equals(b, 0, 4, MAGIC, 0, 4)) {
            throw new KeyFormatException("not a pqsign XMSS key state (bad magic; expected \"PQXS\")");
        }
        if (b[4] != VERSION) {
            throw new KeyFormatException(
                    "unsupported XMSS key state version " + (b[4] & 0xff) + " (this build reads " + VERSION + ")");
        }
        XmssParameterSet.Family family;
        if (b[5] == 1) {
            family = XmssParameterSet.Family.XMSS;
        } else if (b[5] == 2) {
            family = XmssParameterSet.Family.XMSSMT;
        } else {
            throw new KeyFormatException("unknown family byte " + (b[5] & 0xff) + " (1 = XMSS, 2 = XMSS^MT)");
        }
        WotsDerivation derivation = WotsDerivation.byCode(b[6])
                .orElseThrow(() -> new KeyFormatException("unknown WOTS+ derivation byte " + (b[6] & 0xff)));
        int code = XmssPublicKey.readInt(b, 8);
        XmssParameterSet p = XmssParameterSet.byTypeCode(family, code)
                .orElseThrow(() ->
                        new KeyFormatException("unknown " + family + " type code 0x" + String.format("%08x", code)));
        int n = p.n();
        if ((b[7] & 0xff) != n) {
            throw new KeyFormatException(
                    "n = " + (b[7] & 0xff) + " does not match " + p.setName() + " (n = " + n + ")");
        }
        if (b.length != encodedLength(n)) {
            throw new KeyFormatException(
                    p.setName() + " key state must be " + encodedLength(n) + " bytes, got " + b.length);
        }
        byte[] expected = check(b, HEADER + 4 * n);
        if (!Secrets.constantTimeEquals(expected, 0, b, HEADER + 4 * n, CHECK)) {
            throw new KeyFormatException("XMSS key state is corrupt (check value mismatch)");
        }
        long next = readLong(b, 12);
        long end = readLong(b, 20);
        if (next < 0 || end < next || end > p.maxSignatures()) {
            throw new KeyFormatException("invalid index range [" + next + ", " + end + ") for " + p.setName());
        }
        byte[] skSeed = Arrays.copyOfRange(b, HEADER, HEADER + n);
        byte[] skPrf = Arrays.copyOfRange(b, HEADER + n, HEADER + 2 * n);
        try {
            XmssPrivateKey key = new XmssPrivateKey(
                    p,
                    derivation,
                    skSeed,
                    skPrf,
                    Arrays.copyOfRange(b, HEADER + 2 * n, HEADER + 3 * n),
                    Arrays.copyOfRange(b, HEADER + 3 * n, HEADER + 4 * n),
                    true);
            return new XmssKeyState(key, next, end);
        } finally {
            Secrets.wipe(skSeed, skPrf);
        }
    }

    /**
     * Whether {@code b} starts with this format's magic (for "what is this file" checks).
     *
     * @param b a file's content, or its first bytes
     * @return {@code true} if {@code b} starts with "PQXS"
     */
    public static boolean hasMagic(byte[] b) {
        return b.length >= 4 && Arrays.equals(b, 0, 4, MAGIC, 0, 4);
    }

    private static byte[] check(byte[] b, int len) {
        return Digests.checkValue(b, len, CHECK);
    }

    private static void writeInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }

    private static void writeLong(byte[] b, int off, long v) {
        for (int i = 0; i < 8; i++) {
            b[off + i] = (byte) (v >>> (56 - 8 * i));
        }
    }

    private static long readLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xff);
        }
        return v;
    }

    @Override
    public String toString() {
        return "XmssKeyState[" + key.parameterSet().setName() + ", next=" + range.next() + ", end=" + range.end()
                + ", secrets hidden]";
    }

    /** {@link #FORMAT}: decode, encode and ranges as the shared machinery needs them. */
    private static final class Format implements KeyStateFormat<XmssKeyState> {
        @Override
        public XmssKeyState decode(byte[] encoded) {
            return XmssKeyState.decode(encoded);
        }

        @Override
        public byte[] encode(XmssKeyState state) {
            return state.encode();
        }

        @Override
        public IndexRange range(XmssKeyState state) {
            return state.range;
        }

        @Override
        public XmssKeyState withNextIndex(XmssKeyState state, long next) {
            return state.withNextIndex(next);
        }

        @Override
        public List<XmssKeyState> split(XmssKeyState state, int parts) {
            return state.split(parts);
        }

        @Override
        public byte[] keyId(XmssKeyState state) {
            return state.key.publicKey().keyId();
        }

        @Override
        public void destroy(XmssKeyState state) {
            state.key.destroy();
        }
    }
}
