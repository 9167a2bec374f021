package dev.pqsign.keys;

import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.internal.ByteWriter;
import dev.pqsign.keys.internal.StrictReader;
import dev.pqsign.x509.PqPublicKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * A key handover statement: "the key of generation {@code sequence} of chain {@code chainId} is
 * {@code newKey}", to be signed by the key of generation {@code sequence - 1} under its index
 * {@code handoverIndex}. An operator that trusts the old key can thereby trust the new one without
 * trusting anything on first use. Byte layout: docs/formats/key-handover.md.
 *
 * <p>The statement starts with its own 16-byte domain tag, distinct from the signed reading's, so a
 * signature over a reading can never be taken for a handover or the other way round.
 */
public final class KeyHandover {
    /** {@code "PQSIGN-HANDOVER"} and one zero byte. */
    static final byte[] DOMAIN_TAG = "PQSIGN-HANDOVER\0".getBytes(StandardCharsets.US_ASCII);

    static final int VERSION = 1;
    /** No supported public key is larger (HAETAE-5: 2,080 bytes); keeps hostile lengths small. */
    public static final int MAX_PUBLIC_KEY_BYTES = 4096;
    /** The longest statement: tag, version, fixed fields, two 64-byte names, the largest key. */
    public static final int MAX_BYTES = 16 + 1 + 32 + 8 + 1 + 64 + 32 + 8 + 8 + 1 + 64 + 2 + MAX_PUBLIC_KEY_BYTES;

    private final byte[] chainId;
    private final long sequence;
    private final String oldParameterSet;
    private final byte[] oldKeyId;
    private final long handoverIndex;
    private final long issuedAtMillis;
    private final PqPublicKey newKey;

    private KeyHandover(
            byte[] chainId,
            long sequence,
            String oldParameterSet,
            byte[] oldKeyId,
            long handoverIndex,
            long issuedAtMillis,
            PqPublicKey newKey) {
        this.chainId = chainId;
        this.sequence = sequence;
        this.oldParameterSet = oldParameterSet;
        this.oldKeyId = oldKeyId;
        this.handoverIndex = handoverIndex;
        this.issuedAtMillis = issuedAtMillis;
        this.newKey = newKey;
    }

    /**
     * A statement handing chain {@code chainId} over from {@code oldKey} (generation
     * {@code sequence - 1}) to {@code newKey} (generation {@code sequence}).
     *
     * @param chainId key id of the chain's first key (generation 0), 32 bytes
     * @param sequence the new key's generation, at least 1
     * @param oldKey the public key that signs the statement
     * @param handoverIndex the index of {@code oldKey} this statement is signed under
     * @param issuedAt when the sensor issues it, not before 1970
     * @param newKey the public key that takes over, at most {@link #MAX_PUBLIC_KEY_BYTES} bytes
     * @return the statement, not yet signed
     * @throws IllegalArgumentException if {@code chainId} is not 32 bytes, {@code sequence} is below 1,
     *     {@code handoverIndex} is negative, {@code issuedAt} is before 1970 or {@code newKey} is too large
     */
    public static KeyHandover of(
            byte[] chainId,
            long sequence,
            PqPublicKey oldKey,
            long handoverIndex,
            Instant issuedAt,
            PqPublicKey newKey) {
        Objects.requireNonNull(oldKey, "oldKey");
        if (Objects.requireNonNull(chainId, "chainId").length != PublicKeys.KEY_ID_BYTES) {
            throw new IllegalArgumentException("chain id must be 32 bytes, got " + chainId.length);
        }
        if (sequence < 1) {
            throw new IllegalArgumentException("sequence must be >= 1, got " + sequence);
        }
        if (handoverIndex < 0) {
            throw new IllegalArgumentException("handover index must be >= 0, got " + handoverIndex);
        }
        long millis = Objects.requireNonNull(issuedAt, "issuedAt").toEpochMilli();
        if (millis < 0) {
            throw new IllegalArgumentException("issued-at time before 1970");
        }
        if (Objects.requireNonNull(newKey, "newKey").rawEncoding().length > MAX_PUBLIC_KEY_BYTES) {
            throw new IllegalArgumentException("new public key larger than " + MAX_PUBLIC_KEY_BYTES + " bytes");
        }
        return new KeyHandover(
                chainId.clone(),
                sequence,
                oldKey.parameterSet().setName(),
                PublicKeys.keyId(oldKey),
                handoverIndex,
                millis,
                newKey);
    }

    /**
     * The statement's bytes: what the old key signs.
     *
     * @return a new array each call, at most {@link #MAX_BYTES} bytes
     */
    public byte[] encode() {
        return new ByteWriter()
                .raw(DOMAIN_TAG)
                .u8(VERSION)
                .raw(chainId)
                .u64(sequence)
                .name(oldParameterSet)
                .raw(oldKeyId)
                .u64(handoverIndex)
                .u64(issuedAtMillis)
                .name(newKey.parameterSet().setName())
                .u16(newKey.rawEncoding().length)
                .raw(newKey.rawEncoding())
                .toByteArray();
    }

    /**
     * Decodes a statement strictly: tag, version, every length checked before it is used, the new
     * public key valid for its set, no trailing bytes.
     *
     * @param statement the encoded statement
     * @return the statement
     * @throws KeyFormatException with a one-line reason otherwise
     */
    public static KeyHandover decode(byte[] statement) {
        Objects.requireNonNull(statement, "statement");
        if (statement.length > MAX_BYTES) {
            throw new KeyFormatException(
                    "key handover statement is " + statement.length + " bytes, at most " + MAX_BYTES + " allowed");
        }
        StrictReader r = new StrictReader(statement, "key handover statement");
        r.expect(DOMAIN_TAG, "domain tag");
        int version = r.u8("version");
        if (version != VERSION) {
            throw new KeyFormatException("key handover statement version " + version + " is not supported (only 1)");
        }
        byte[] chainId = r.bytes(PublicKeys.KEY_ID_BYTES, "chain id");
        long sequence = r.u63("sequence");
        if (sequence < 1) {
            throw new KeyFormatException("key handover statement sequence must be >= 1");
        }
        String oldSet = r.name("old parameter set");
        byte[] oldKeyId = r.bytes(PublicKeys.KEY_ID_BYTES, "old key id");
        long handoverIndex = r.u63("handover index");
        long issuedAt = r.u63("issued-at time");
        String newSet = r.name("new parameter set");
        int keyLen = r.u16("new public key length");
        if (keyLen < 1 || keyLen > MAX_PUBLIC_KEY_BYTES) {
            throw new KeyFormatException("key handover statement new public key length " + keyLen + " is outside 1.."
                    + MAX_PUBLIC_KEY_BYTES);
        }
        byte[] key = r.bytes(keyLen, "new public key");
        r.end();
        PqPublicKey newKey = PublicKeys.decode(newSet, key);
        return new KeyHandover(chainId, sequence, oldSet, oldKeyId, handoverIndex, issuedAt, newKey);
    }

    /**
     * Key id of the chain's first key (generation 0): the sensor's identity.
     *
     * @return a copy of the 32-byte chain id
     */
    public byte[] chainId() {
        return chainId.clone();
    }

    /**
     * Generation of the new key (the signing key is generation {@code sequence - 1}).
     *
     * @return the new key's generation, at least 1
     */
    public long sequence() {
        return sequence;
    }

    /**
     * Parameter-set name of the key that signs this statement.
     *
     * @return the canonical set name, as encoded
     */
    public String oldParameterSet() {
        return oldParameterSet;
    }

    /**
     * Key id of the key that signs this statement.
     *
     * @return a copy of the old key's 32-byte id (SHA-256 of its public key encoding)
     */
    public byte[] oldKeyId() {
        return oldKeyId.clone();
    }

    /**
     * The old key's index this statement is signed under; the old key signs nothing after it.
     *
     * @return the index, 0 or more
     */
    public long handoverIndex() {
        return handoverIndex;
    }

    /**
     * When the sensor issued the statement (informational: trust never depends on clocks).
     *
     * @return the issue time, millisecond precision
     */
    public Instant issuedAt() {
        return Instant.ofEpochMilli(issuedAtMillis);
    }

    /**
     * The key of generation {@link #sequence()}.
     *
     * @return the new public key
     */
    public PqPublicKey newKey() {
        return newKey;
    }

    /**
     * Key id of the new key.
     *
     * @return the new key's 32-byte id (SHA-256 of its public key encoding), a new array
     */
    public byte[] newKeyId() {
        return PublicKeys.keyId(newKey);
    }

    /**
     * {@code true} if this statement names {@code keyId} as its old key (constant time).
     *
     * @param keyId a 32-byte key id
     * @return whether it equals the old key id
     */
    public boolean isSignedFor(byte[] keyId) {
        return MessageDigest.isEqual(oldKeyId, keyId);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyHandover && Arrays.equals(((KeyHandover) o).encode(), encode());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encode());
    }

    @Override
    public String toString() {
        return "KeyHandover[chain " + Hex.encode(chainId).substring(0, 16) + "…, generation " + sequence + ", "
                + oldParameterSet + " index " + handoverIndex + " -> "
                + newKey.parameterSet().setName() + " key "
                + Hex.encode(newKeyId()).substring(0, 16) + "…]";
    }
}
