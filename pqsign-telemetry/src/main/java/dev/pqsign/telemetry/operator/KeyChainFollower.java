package dev.pqsign.telemetry.operator;

import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.keys.KeyCertificateChain;
import dev.pqsign.keys.KeyChain;
import dev.pqsign.keys.PublicKeys;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.telemetry.HandoverCheck;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.x509.PqPublicKey;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The operator's side of key rollover: one {@link KeyChain} per sensor, started at the key the
 * operator pinned (or certified), moved on only by handover statements the chain's current key
 * signed, and persisted under {@code dir/NNNN….pqkc} (one file per chain, named by the chain id)
 * before any reading of a new key is accepted. Every key a chain reaches is trusted by the sensor's
 * {@link ReadingVerifier}; every key it leaves is retired there at its handover index. One follower
 * serves all sensors of an operator, so a handover to another sensor's key is recognised.
 *
 * <p>After a restart with the same pinned keys, each chain continues where it was; no
 * reconfiguration is needed to follow a sensor across any number of rollovers.
 */
public final class KeyChainFollower {
    private static final System.Logger LOG = System.getLogger(KeyChainFollower.class.getName());
    static final String SUFFIX = ".pqkc";
    /** The certificate chain of a chain's current key, for sensors followed in certificate mode. */
    static final String CERTIFICATES_SUFFIX = ".pqcc";

    /**
     * Where the followed chains are kept, by chain id (hex): the operator's files, or another
     * durable store such as a stream processor's state store.
     */
    public interface ChainStore {
        /**
         * The stored state of a chain ({@link KeyChain#encode()}), or empty if it was never stored.
         *
         * @param chainIdHex the chain id in lower-case hex
         * @return the stored bytes, not yet checked
         * @throws IOException if the store cannot be read
         */
        Optional<byte[]> load(String chainIdHex) throws IOException;

        /**
         * Stores a chain's new state; returns only once it is durable.
         *
         * @param chainIdHex the chain id in lower-case hex
         * @param state the chain's encoded state
         * @throws IOException if the state cannot be made durable; the chain is then not followed
         */
        void store(String chainIdHex, byte[] state) throws IOException;

        /**
         * Where a chain is kept, for error messages.
         *
         * @param chainIdHex the chain id in lower-case hex
         * @return e.g. the file name
         */
        String describe(String chainIdHex);

        /**
         * Stores the certificate chain of a chain's new key (certificate mode, {@link KeyCertificateChain#encode()}),
         * before its new state; returns only once it is durable. A store that keeps no certificates refuses.
         *
         * @param chainIdHex the chain id in lower-case hex
         * @param certificates the encoded certificate chain
         * @throws IOException if they cannot be made durable, and always for a store that keeps no certificates
         */
        default void storeCertificates(String chainIdHex, byte[] certificates) throws IOException {
            throw new IOException("this chain store keeps no key certificates (certificate mode is not supported)");
        }
    }

    private final ChainStore store;
    private final Map<String, KeyChain> chains = new ConcurrentHashMap<>();

    /**
     * A follower that keeps each chain in a file of {@code dir}.
     *
     * @param dir where the followed chains are persisted (created if missing)
     * @throws IOException if the directory cannot be created
     */
    public KeyChainFollower(Path dir) throws IOException {
        Path d = Files.createDirectories(dir);
        this.store = new ChainStore() {
            @Override
            public Optional<byte[]> load(String chainIdHex) throws IOException {
                try {
                    return Optional.of(DurableFiles.readAll(d.resolve(chainIdHex + SUFFIX), 1 << 20));
                } catch (NoSuchFileException e) {
                    return Optional.empty();
                }
            }

            @Override
            public void store(String chainIdHex, byte[] state) throws IOException {
                DurableFiles.writeAtomically(d.resolve(chainIdHex + SUFFIX), state);
            }

            @Override
            public String describe(String chainIdHex) {
                return d.resolve(chainIdHex + SUFFIX).toString();
            }

            @Override
            public void storeCertificates(String chainIdHex, byte[] certificates) throws IOException {
                DurableFiles.writeAtomically(d.resolve(chainIdHex + CERTIFICATES_SUFFIX), certificates);
            }

            @Override
            public String toString() {
                return d.toString();
            }
        };
    }

    /**
     * A follower that keeps the chains in {@code store}.
     *
     * @param store where the followed chains are kept
     */
    public KeyChainFollower(ChainStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * Starts (or, after a restart, resumes) the chain of a sensor whose first key the operator
     * trusts, and trusts its current key and its remembered retired keys in {@code verifier} (the
     * sensor's).
     *
     * @param trustedFirstKey the sensor's first key (generation 0), pinned or certified
     * @param verifier the sensor's verifier
     * @return the chain as persisted, or a new one at the first key
     * @throws IOException if a persisted chain exists but cannot be read or belongs to another key
     */
    public synchronized KeyChain follow(PqPublicKey trustedFirstKey, ReadingVerifier verifier) throws IOException {
        Objects.requireNonNull(verifier, "verifier");
        KeyChain start = KeyChain.startingAt(trustedFirstKey);
        String id = Hex.encode(start.chainId());
        KeyChain chain = chains.get(id);
        if (chain == null) {
            chain = load(id, start);
            chains.put(id, chain);
            for (KeyChain.Member m : chain.retired()) {
                verifier.trust(TrustedKeys.of(m.key()));
                verifier.retire(KeyId.of(m.keyId()), m.retiredAt());
            }
            verifier.trust(TrustedKeys.of(chain.current().key()));
        }
        return chain;
    }

    private KeyChain load(String id, KeyChain start) throws IOException {
        Optional<byte[]> state = store.load(id);
        if (state.isEmpty()) {
            return start;
        }
        try {
            return KeyChain.decode(state.get(), start.chainId());
        } catch (KeyFormatException e) {
            throw new IOException(store.describe(id) + ": " + e.getMessage(), e);
        }
    }

    /**
     * The chain whose id is {@code chainId}, if the operator follows it.
     *
     * @param chainId the 32-byte chain id
     * @return the chain, or null if the operator does not follow it
     */
    public KeyChain chain(byte[] chainId) {
        return chains.get(Hex.encode(chainId));
    }

    /**
     * Checks a received handover record: decodes it, follows it if it is the next one of a chain and
     * verifies under that chain's current key (persisting the new chain state durably first), then
     * trusts the new key and retires the old one in {@code verifier} (the sensor's).
     *
     * @param record the record node's value, a signed key handover
     * @param verifier the sensor's verifier
     * @return the outcome; {@link HandoverOutcome#MALFORMED} also if the new chain state could not be stored
     */
    public HandoverCheck receive(byte[] record, ReadingVerifier verifier) {
        return receive(record, verifier, null, null, Instant.now());
    }

    /**
     * As {@link #receive(byte[], ReadingVerifier)} for a sensor followed in certificate mode: a
     * handover that verifies is followed only if {@code certificates} certifies its new key under
     * {@code trust} at {@code now} (else {@link HandoverOutcome#UNCERTIFIED}, an alarm); the chain is
     * stored durably as {@code dir/ID.pqcc} before the chain state, so the operator keeps the
     * certificate of every key it followed to.
     *
     * @param record the record node's value, a signed key handover
     * @param verifier the sensor's verifier
     * @param trust the sensor's device CA binding, or null for a sensor followed by handovers alone
     * @param certificates the certificate chain the sensor published for the new key, or null if none
     * @param now the time the certificates must be valid at
     * @return the outcome; {@link HandoverOutcome#MALFORMED} also if the certificates or the new chain state could not
     *     be stored
     */
    public synchronized HandoverCheck receive(
            byte[] record,
            ReadingVerifier verifier,
            DeviceCaTrust trust,
            KeyCertificateChain certificates,
            Instant now) {
        Objects.requireNonNull(verifier, "verifier");
        SignedKeyHandover h;
        try {
            h = SignedKeyHandover.decode(record);
        } catch (KeyFormatException e) {
            return new HandoverCheck(HandoverOutcome.MALFORMED, null, -1, List.of(), e.getMessage());
        }
        String id = Hex.encode(h.statement().chainId());
        KeyChain chain = chains.get(id);
        if (chain == null) {
            return new HandoverCheck(
                    HandoverOutcome.FOREIGN_CHAIN,
                    h,
                    -1,
                    List.of(),
                    "handover of chain " + id.substring(0, 16) + "…, which is not a sensor this operator follows");
        }
        KeyChain.Step step = chain.follow(h, this::usedByAnotherChain);
        long g = step.chain().current().generation();
        switch (step.outcome()) {
            case FOLLOWED:
                break;
            case ALREADY_FOLLOWED:
                return new HandoverCheck(
                        step.outcome(),
                        h,
                        g,
                        List.of(),
                        "handover to generation " + h.statement().sequence() + " already followed");
            default:
                LOG.log(Level.WARNING, "key handover rejected: {0} ({1})", step.outcome(), h);
                return new HandoverCheck(step.outcome(), h, g, List.of(), describe(step.outcome(), h, chain));
        }
        if (trust != null) {
            Optional<String> refusal = certificates == null
                    ? Optional.of("no certificate chain was published for the new key")
                    : trust.refusal(certificates, h.statement().newKey(), now);
            if (refusal.isPresent()) {
                LOG.log(Level.WARNING, "key handover rejected: no valid certificate ({0})", refusal.get());
                return new HandoverCheck(
                        HandoverOutcome.UNCERTIFIED,
                        h,
                        chain.current().generation(),
                        List.of(),
                        "handover to generation " + h.statement().sequence() + " refused: " + refusal.get());
            }
        }
        try {
            if (trust != null) {
                store.storeCertificates(id, certificates.encode());
            }
            store.store(id, step.chain().encode());
        } catch (IOException e) {
            // Not followed: no reading of the new key may be accepted before the chain is durable.
            return new HandoverCheck(
                    HandoverOutcome.MALFORMED,
                    h,
                    chain.current().generation(),
                    List.of(),
                    "handover verified but the chain state could not be stored: " + e.getMessage());
        }
        chains.put(id, step.chain());
        verifier.trust(TrustedKeys.of(h.statement().newKey()));
        List<Verdict.Gap> gaps = verifier.retire(
                KeyId.of(h.statement().oldKeyId()), h.statement().handoverIndex());
        return new HandoverCheck(
                HandoverOutcome.FOLLOWED,
                h,
                g,
                gaps,
                "followed key handover to generation " + g
                        + " (" + h.statement().newKey().parameterSet().setName() + " key "
                        + Hex.encode(h.statement().newKeyId()).substring(0, 16) + "…), old key retired at index "
                        + h.statement().handoverIndex());
    }

    private boolean usedByAnotherChain(byte[] keyId) {
        for (KeyChain c : chains.values()) {
            if (c.member(keyId).isPresent()) {
                return true;
            }
        }
        return false;
    }

    private static String describe(HandoverOutcome o, SignedKeyHandover h, KeyChain chain) {
        long seq = h.statement().sequence();
        long g = chain.current().generation();
        return switch (o) {
            case REPLAYED -> "handover to generation " + seq + " replayed (chain is at generation " + g + ")";
            case OUT_OF_ORDER ->
                "handover to generation " + seq + " but the chain is at generation " + g
                        + "; the handovers in between are missing";
            case WRONG_SIGNER ->
                "handover to generation " + seq + " names a signer other than the current key "
                        + Hex.encode(PublicKeys.keyId(chain.current().key())).substring(0, 16) + "…";
            case BAD_SIGNATURE -> "handover to generation " + seq + " does not verify under the current key";
            case KEY_REUSED -> "handover to generation " + seq + " names a key already in use";
            default -> "handover to generation " + seq + ": " + o;
        };
    }

    @Override
    public String toString() {
        return "KeyChainFollower[" + store + ", " + chains.size() + " chains]";
    }
}
