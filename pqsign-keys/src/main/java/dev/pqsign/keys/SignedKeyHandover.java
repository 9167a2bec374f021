package dev.pqsign.keys;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.IndexedSigner;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.internal.ByteWriter;
import dev.pqsign.keys.internal.StrictReader;
import dev.pqsign.x509.PqPublicKey;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * A key handover statement with the old key's signature over it, as a sensor publishes and stores it
 * and as an operator's JSONL archives it (layout: docs/formats/key-handover.md, "Signed record").
 */
public final class SignedKeyHandover {
    /** {@code "PQHO"}. */
    static final byte[] MAGIC = "PQHO".getBytes(StandardCharsets.US_ASCII);

    static final int VERSION = 1;
    /** Larger than any supported signature (XMSS^MT-SHA2_60/3_256: 24 KiB range). */
    public static final int MAX_SIGNATURE_BYTES = 1 << 16;

    private final byte[] statementBytes;
    private final KeyHandover statement;
    private final byte[] signature;

    private SignedKeyHandover(byte[] statementBytes, KeyHandover statement, byte[] signature) {
        this.statementBytes = statementBytes;
        this.statement = statement;
        this.signature = signature;
    }

    /**
     * Signs a handover of chain {@code chainId} from {@code oldKey} to {@code newKey} with the old
     * key's signer. The signer reserves its next index durably first; the statement names that index
     * as the handover index, so the old key signs nothing after the statement.
     *
     * @param oldSigner the signer of {@code oldKey}
     * @param oldKey the public key of the chain's current key (generation {@code sequence - 1})
     * @param chainId key id of the chain's first key, 32 bytes
     * @param sequence the new key's generation, at least 1
     * @param newKey the public key that takes over
     * @param issuedAt when the sensor issues the statement
     * @return the statement and its signature
     * @throws dev.pqsign.core.KeyExhaustedException if the old key has no index left
     * @throws dev.pqsign.core.StatePersistenceException if the index could not be reserved durably
     * @throws IllegalArgumentException if the signer's parameter set is not {@code oldKey}'s, or the statement's fields
     *     are invalid as in {@link KeyHandover#of}; in the second case the reserved index is spent
     */
    public static SignedKeyHandover sign(
            IndexedSigner oldSigner,
            PqPublicKey oldKey,
            byte[] chainId,
            long sequence,
            PqPublicKey newKey,
            Instant issuedAt) {
        Objects.requireNonNull(oldSigner, "oldSigner");
        if (!oldSigner.parameterSet().setName().equals(oldKey.parameterSet().setName())) {
            throw new IllegalArgumentException(
                    "signer is " + oldSigner.parameterSet().setName() + ", old key is "
                            + oldKey.parameterSet().setName());
        }
        KeyHandover[] made = new KeyHandover[1];
        IndexedSignature s = oldSigner.signIndexed(index -> {
            made[0] = KeyHandover.of(chainId, sequence, oldKey, index, issuedAt, newKey);
            return made[0].encode();
        });
        return new SignedKeyHandover(made[0].encode(), made[0], s.signature());
    }

    /**
     * The record's bytes: magic, version, statement and signature, each length-prefixed.
     *
     * @return a new array
     */
    public byte[] encode() {
        return new ByteWriter()
                .raw(MAGIC)
                .u8(VERSION)
                .u32(statementBytes.length)
                .raw(statementBytes)
                .u32(signature.length)
                .raw(signature)
                .toByteArray();
    }

    /**
     * Decodes a signed record strictly (the statement too).
     *
     * @param record the encoded record
     * @return the signed statement; its signature is not verified here ({@link #isSignedBy})
     * @throws KeyFormatException with a one-line reason if anything is wrong
     */
    public static SignedKeyHandover decode(byte[] record) {
        Objects.requireNonNull(record, "record");
        StrictReader r = new StrictReader(record, "signed key handover");
        r.expect(MAGIC, "magic");
        int version = r.u8("version");
        if (version != VERSION) {
            throw new KeyFormatException("signed key handover version " + version + " is not supported (only 1)");
        }
        byte[] statementBytes = r.bytes(r.length32("statement length", KeyHandover.MAX_BYTES), "statement");
        byte[] signature = r.bytes(r.length32("signature length", MAX_SIGNATURE_BYTES), "signature");
        r.end();
        return new SignedKeyHandover(statementBytes, KeyHandover.decode(statementBytes), signature);
    }

    /**
     * The decoded statement.
     *
     * @return the statement
     */
    public KeyHandover statement() {
        return statement;
    }

    /**
     * The statement's bytes exactly as signed.
     *
     * @return a copy of the signed bytes
     */
    public byte[] statementBytes() {
        return statementBytes.clone();
    }

    /**
     * The old key's signature over {@link #statementBytes()}.
     *
     * @return a copy of the signature
     */
    public byte[] signature() {
        return signature.clone();
    }

    /**
     * {@code true} if {@code oldKey} is the key the statement names as its signer (key id and
     * parameter set), the signature verifies under it, and, for XMSS / XMSS^MT, the index the
     * signature carries is the statement's handover index.
     *
     * @param oldKey the public key of the chain's current key
     * @return whether all three hold
     */
    public boolean isSignedBy(PqPublicKey oldKey) {
        if (!statement.isSignedFor(PublicKeys.keyId(oldKey))
                || !statement.oldParameterSet().equals(oldKey.parameterSet().setName())) {
            return false;
        }
        if (oldKey.isXmss() && PublicKeys.embeddedIndex(oldKey, signature) != statement.handoverIndex()) {
            return false;
        }
        return oldKey.verifier().verify(statementBytes, signature);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SignedKeyHandover && Arrays.equals(((SignedKeyHandover) o).encode(), encode());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encode());
    }

    @Override
    public String toString() {
        return "Signed" + statement;
    }
}
