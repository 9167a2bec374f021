package dev.pqsign.lms;

import dev.pqsign.core.Digests;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Secrets;
import dev.pqsign.core.internal.IndexRange;
import dev.pqsign.core.internal.KeyStateFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The persisted private state of an HSS key: the hierarchy, the top tree's I, SEED and root, and
 * the range {@code [nextIndex, endIndex)} of indices this key file may still use. Immutable. No
 * tree is persisted: the signer rebuilds what it needs from the SEED when the key is opened.
 *
 * <p>Binary format (big-endian; documented for implementers in docs/formats/hss-state.md):
 * <pre>
 * 0          4  magic "PQLS"
 * 4          1  format version (1)
 * 5          1  L, the number of levels (1 … 8)
 * 6          1  n, the hash length of every level (24 or 32)
 * 7          1  0
 * 8         8L  per level, top first: u32 LMS type code, u32 LM-OTS type code
 * 8+8L       8  next index (lowest index not yet burned)
 * 16+8L      8  end index (exclusive; 2^(h_0+…+h_(L-1)) for a key that was never split)
 * 24+8L     16  I of the top tree
 * 40+8L      n  SEED of the top tree
 * 40+8L+n    n  root T[1] of the top tree (the public key's)
 * 40+8L+2n  16  check: first 16 bytes of SHA-256 over bytes [0, 40+8L+2n)
 * </pre>
 * 128 bytes for one level with n = 32.
 */
public final class HssKeyState {
    static final byte[] MAGIC = {'P', 'Q', 'L', 'S'};
    static final int VERSION = 1;
    private static final int CHECK = 16;

    /** The view of this format that the shared reservation and split machinery works through. */
    static final KeyStateFormat<HssKeyState> FORMAT = new Format();

    private final HssPrivateKey key;
    private final IndexRange range;

    private HssKeyState(HssPrivateKey key, long nextIndex, long endIndex) {
        this(key, IndexRange.of(nextIndex, endIndex, key.parameterSet().maxSignatures()));
    }

    private HssKeyState(HssPrivateKey key, IndexRange range) {
        this.key = key;
        this.range = range;
    }

    /**
     * The state of a freshly generated key: every index available. To store it, prefer
     * {@link HssStatefulSigner#create}. Store it once: two fresh states of one key would hand out the
     * same indices.
     *
     * @param key a key just made by {@link HssKeyGenerator}
     * @return the state with range [0, 2^H)
     * @throws IllegalArgumentException if {@code key} was read from a key state: some of its indices
     *     may be used already, and a fresh state would hand them out again
     * @throws IllegalStateException if {@code key} was destroyed
     */
    public static HssKeyState fresh(HssPrivateKey key) {
        key.checkNotDestroyed();
        if (key.fromState()) {
            throw new IllegalArgumentException("a key read from a key state cannot start a fresh state at index 0 "
                    + "(its used indices would be reused); keep signing with its own state file");
        }
        return new HssKeyState(key, 0, key.parameterSet().maxSignatures());
    }

    /**
     * The key's secret material (the same object for every state derived from this one).
     *
     * @return the private key
     */
    public HssPrivateKey key() {
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
     * @return the end index: 2^H for a key that was never split
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
     * This state with another next index: only the signer moves indices (through {@link #FORMAT}),
     * and {@link HssKeySplit} divides them ({@link #split}).
     */
    HssKeyState withNextIndex(long next) {
        return new HssKeyState(key, next, range.end());
    }

    /** This key with another range (tests of this package set up states at given indices with it). */
    HssKeyState withRange(long next, long end) {
        return new HssKeyState(key, next, end);
    }

    /**
     * Divides the remaining range into {@code parts} disjoint, contiguous, non-empty ranges of the
     * same key, in index order, sizes differing by at most one (the first {@code remaining % parts}
     * are one longer). A pure computation; {@link HssKeySplit} does it safely on disk.
     */
    List<HssKeyState> split(int parts) {
        List<HssKeyState> out = new ArrayList<>(parts);
        for (IndexRange r : range.split(parts)) {
            out.add(new HssKeyState(key, r));
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * Encoded length for a hierarchy of {@code levels} levels with hash length {@code n}.
     *
     * @param levels L
     * @param n the hash length
     * @return 56 + 8L + 2n
     */
    public static int encodedLength(int levels, int n) {
        return 40 + 8 * levels + 2 * n + CHECK;
    }

    /**
     * The state file bytes (they contain the secret SEED: wipe them after writing).
     *
     * @return a new array of {@link #encodedLength(int, int)} bytes
     * @throws IllegalStateException if the key was destroyed
     */
    public byte[] encode() {
        key.checkNotDestroyed();
        HssParameterSet p = key.parameterSet();
        int levels = p.levels();
        int n = p.top().n();
        byte[] out = new byte[encodedLength(levels, n)];
        System.arraycopy(MAGIC, 0, out, 0, 4);
        out[4] = VERSION;
        out[5] = (byte) levels;
        out[6] = (byte) n;
        for (int i = 0; i < levels; i++) {
            Bytes.putInt(out, 8 + 8 * i, p.level(i).lmsType().typeCode());
            Bytes.putInt(out, 12 + 8 * i, p.level(i).otsType().typeCode());
        }
        int at = 8 + 8 * levels;
        Bytes.putLong(out, at, range.next());
        Bytes.putLong(out, at + 8, range.end());
        System.arraycopy(key.id(), 0, out, at + 16, 16);
        System.arraycopy(key.seed(), 0, out, at + 32, n);
        System.arraycopy(key.publicKey().top().rootRef(), 0, out, at + 32 + n, n);
        System.arraycopy(check(out, at + 32 + 2 * n), 0, out, at + 32 + 2 * n, CHECK);
        return out;
    }

    /**
     * Decodes a state file. Every field is checked before use (lengths before anything is copied);
     * the message says what is wrong, never what the secret bytes are.
     *
     * @param b the state file's content; not modified
     * @return the decoded state
     * @throws KeyFormatException if the bytes are not a valid pqsign HSS key state
     */
    public static HssKeyState decode(byte[] b) {
        if (b.length < 8) {
            throw new KeyFormatException("too short for an HSS key state: " + b.length + " bytes, need at least 8");
        }
        if (!Arrays.equals(b, 0, 4, MAGIC, 0, 4)) {
            throw new KeyFormatException("not a pqsign HSS key state (bad magic; expected \"PQLS\")");
        }
        if (b[4] != VERSION) {
            throw new KeyFormatException(
                    "unsupported HSS key state version " + (b[4] & 0xff) + " (this build reads " + VERSION + ")");
        }
        int levels = b[5] & 0xff;
        int n = b[6] & 0xff;
        if (levels < 1 || levels > HssParameterSet.MAX_LEVELS) {
            throw new KeyFormatException("HSS key state has L = " + levels + " levels; 1 to 8 are allowed");
        }
        if (n != 24 && n != 32) {
            throw new KeyFormatException("HSS key state has n = " + n + "; 24 or 32 are allowed");
        }
        if (b[7] != 0) {
            throw new KeyFormatException("HSS key state byte 7 is " + (b[7] & 0xff) + ", must be 0");
        }
        if (b.length != encodedLength(levels, n)) {
            throw new KeyFormatException("an HSS key state with L = " + levels + " and n = " + n + " must be "
                    + encodedLength(levels, n) + " bytes, got " + b.length);
        }
        int at = 8 + 8 * levels;
        if (!Secrets.constantTimeEquals(check(b, at + 32 + 2 * n), 0, b, at + 32 + 2 * n, CHECK)) {
            throw new KeyFormatException("HSS key state is corrupt (check value mismatch)");
        }
        HssParameterSet p = parameters(b, levels, n);
        long next = Bytes.getLong(b, at);
        long end = Bytes.getLong(b, at + 8);
        if (next < 0 || end < next || end > p.maxSignatures()) {
            throw new KeyFormatException("invalid index range [" + next + ", " + end + ") for " + p.setName());
        }
        byte[] id = Arrays.copyOfRange(b, at + 16, at + 32);
        byte[] seed = Arrays.copyOfRange(b, at + 32, at + 32 + n);
        byte[] root = Arrays.copyOfRange(b, at + 32 + n, at + 32 + 2 * n);
        try {
            HssPublicKey pub = new HssPublicKey(levels, new LmsPublicKey(p.top(), id, root));
            return new HssKeyState(new HssPrivateKey(p, seed, pub, true), next, end);
        } finally {
            Secrets.wipe(seed);
        }
    }

    private static HssParameterSet parameters(byte[] b, int levels, int n) {
        LmsParameterSet[] sets = new LmsParameterSet[levels];
        for (int i = 0; i < levels; i++) {
            int off = 8 + 8 * i;
            LmsParameterSet l = LmsPublicKey.parseTypes(b, off, 8)
                    .orElseThrow(() -> new KeyFormatException("HSS key state level " + (off - 8) / 8 + ": type codes 0x"
                            + String.format("%08x", Bytes.getInt(b, off)) + "/0x"
                            + String.format("%08x", Bytes.getInt(b, off + 4)) + " are not an LMS tree pqsign knows"));
            if (l.n() != n) {
                throw new KeyFormatException("HSS key state level " + i + " (" + l.setName() + ") has n = " + l.n()
                        + ", the state says " + n);
            }
            sets[i] = l;
        }
        HssParameterSet p = HssParameterSet.of(sets);
        p.whyNotSignable().ifPresent(why -> {
            throw new KeyFormatException("HSS key state: " + why);
        });
        return p;
    }

    /**
     * Whether {@code b} starts with this format's magic (for "what is this file" checks).
     *
     * @param b a file's content, or its first bytes
     * @return {@code true} if {@code b} starts with "PQLS"
     */
    public static boolean hasMagic(byte[] b) {
        return b.length >= 4 && Arrays.equals(b, 0, 4, MAGIC, 0, 4);
    }

    private static byte[] check(byte[] b, int len) {
        return Digests.checkValue(b, len, CHECK);
    }

    @Override
    public String toString() {
        return "HssKeyState[" + key.parameterSet().setName() + ", next=" + range.next() + ", end=" + range.end()
                + ", secrets hidden]";
    }

    /** {@link #FORMAT}: decode, encode and ranges as the shared machinery needs them. */
    private static final class Format implements KeyStateFormat<HssKeyState> {
        @Override
        public HssKeyState decode(byte[] encoded) {
            return HssKeyState.decode(encoded);
        }

        @Override
        public byte[] encode(HssKeyState state) {
            return state.encode();
        }

        @Override
        public IndexRange range(HssKeyState state) {
            return state.range;
        }

        @Override
        public HssKeyState withNextIndex(HssKeyState state, long next) {
            return state.withNextIndex(next);
        }

        @Override
        public List<HssKeyState> split(HssKeyState state, int parts) {
            return state.split(parts);
        }

        @Override
        public byte[] keyId(HssKeyState state) {
            return state.key.publicKey().keyId();
        }

        @Override
        public void destroy(HssKeyState state) {
            state.key.destroy();
        }
    }
}
