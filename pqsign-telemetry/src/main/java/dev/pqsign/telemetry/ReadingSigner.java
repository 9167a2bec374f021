package dev.pqsign.telemetry;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.IndexedSigner;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Signs readings through an {@link IndexedSigner}: the index is reserved durably first, then the
 * canonical {@link ReadingMessage} is built for exactly that index, then signed. Works for any
 * scheme: stateful ones reserve their one-time index, stateless ones are wrapped in a
 * {@link SequencedSigner}.
 */
public final class ReadingSigner {

    private final IndexedSigner signer;
    private final String setName;

    /**
     * A reading signer for one key.
     *
     * @param signer the sensor's key
     */
    public ReadingSigner(IndexedSigner signer) {
        this.signer = Objects.requireNonNull(signer, "signer");
        this.setName = signer.parameterSet().setName();
    }

    /**
     * Signs one reading.
     *
     * @param reading the reading text, UTF-8 encoded for signing
     * @return the reading, its index and the signature
     * @throws IllegalArgumentException if the reading exceeds {@link ReadingMessage#MAX_READING_BYTES}
     * @throws dev.pqsign.core.KeyExhaustedException if the key has no index left
     * @throws dev.pqsign.core.StatePersistenceException if the index could not be reserved durably
     */
    public SignedReading sign(String reading) {
        byte[] bytes = reading.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > ReadingMessage.MAX_READING_BYTES) {
            throw new IllegalArgumentException("reading has " + bytes.length + " UTF-8 bytes, at most "
                    + ReadingMessage.MAX_READING_BYTES + " allowed");
        }
        IndexedSignature s = signer.signIndexed(index -> ReadingMessage.encode(setName, index, bytes));
        return new SignedReading(reading, s.index(), s.signature());
    }

    /**
     * The name of the parameter set readings are signed with.
     *
     * @return the canonical set name
     */
    public String parameterSetName() {
        return setName;
    }

    /**
     * The underlying signer.
     *
     * @return the signer this signs with
     */
    public IndexedSigner signer() {
        return signer;
    }
}
