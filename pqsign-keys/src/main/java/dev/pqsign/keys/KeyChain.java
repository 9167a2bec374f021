package dev.pqsign.keys;

import dev.pqsign.core.Digests;
import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.internal.ByteWriter;
import dev.pqsign.keys.internal.StrictReader;
import dev.pqsign.x509.PqPublicKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The keys of one sensor as an operator follows them: the chain starts at a key the operator trusts
 * (pinned, or certified) and moves to a new key only through a {@link SignedKeyHandover} signed by the
 * chain's current key. Immutable; {@link #follow} returns the next chain. The operator persists
 * {@link #encode()} before it accepts any reading of a new key (format: docs/formats/key-handover.md,
 * "Followed chain state").
 *
 * <p>The chain remembers the last {@value #MAX_RETIRED} retired keys with the index each was retired
 * at, so readings signed before a handover but delivered after it (backfill) still verify, and readings
 * a retired key signs after its handover are recognised as such.
 */
public final class KeyChain {
    /** Retired keys kept for late readings and re-delivered handovers. */
    public static final int MAX_RETIRED = 16;

    static final byte[] MAGIC = "PQKC".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    private static final int CHECK_BYTES = 16;

    /** A key of the chain with its generation; {@code retiredAt} is -1 for the current key. */
    public static final class Member {
        private final long generation;
        private final PqPublicKey key;
        private final byte[] keyId;
        private final long retiredAt;

        private Member(long generation, PqPublicKey key, long retiredAt) {
            this.generation = generation;
            this.key = key;
            this.keyId = PublicKeys.keyId(key);
            this.retiredAt = retiredAt;
        }

        /**
         * The key's generation in the chain.
         *
         * @return 0 for the chain's first key, then one more per handover
         */
        public long generation() {
            return generation;
        }

        /**
         * The member's public key.
         *
         * @return the public key
         */
        public PqPublicKey key() {
            return key;
        }

        /**
         * The member's key id.
         *
         * @return a copy of the 32-byte key id (SHA-256 of the public key encoding)
         */
        public byte[] keyId() {
            return keyId.clone();
        }

        /**
         * {@code true} if this key was handed over.
         *
         * @return whether {@link #retiredAt()} is 0 or more
         */
        public boolean isRetired() {
            return retiredAt >= 0;
        }

        /**
         * The index the handover statement was signed under: readings of this key with a lower index
         * are genuine (possibly late); the key signs nothing with a higher one.
         *
         * @return the handover index, or -1 for the current key
         */
        public long retiredAt() {
            return retiredAt;
        }

        boolean hasKeyId(byte[] id) {
            return MessageDigest.isEqual(keyId, id);
        }
    }

    /** The result of {@link #follow}: the outcome and the chain afterwards (unchanged unless FOLLOWED). */
    public static final class Step {
        private final HandoverOutcome outcome;
        private final KeyChain chain;

        private Step(HandoverOutcome outcome, KeyChain chain) {
            this.outcome = outcome;
            this.chain = chain;
        }

        /**
         * What the handover was found to be.
         *
         * @return the outcome
         */
        public HandoverOutcome outcome() {
            return outcome;
        }

        /**
         * The chain after the handover.
         *
         * @return the next chain if {@link HandoverOutcome#FOLLOWED}, else the chain that was asked
         */
        public KeyChain chain() {
            return chain;
        }
    }

    private final byte[] chainId;
    private final Member current;
    private final List<Member> retired;

    private KeyChain(byte[] chainId, Member current, List<Member> retired) {
        this.chainId = chainId;
        this.current = current;
        this.retired = List.copyOf(retired);
    }

    /**
     * A chain that starts at a trusted key (generation 0); its key id is the chain id.
     *
     * @param trustedKey the key the operator trusts (pinned, or certified)
     * @return the chain, with no retired keys
     */
    public static KeyChain startingAt(PqPublicKey trustedKey) {
        Objects.requireNonNull(trustedKey, "trustedKey");
        return new KeyChain(PublicKeys.keyId(trustedKey), new Member(0, trustedKey, -1), List.of());
    }

    /**
     * The chain id: key id of generation 0, the sensor's identity in every handover statement.
     *
     * @return a copy of the 32-byte chain id
     */
    public byte[] chainId() {
        return chainId.clone();
    }

    /**
     * The key that signs now.
     *
     * @return the current member; its {@code retiredAt} is -1
     */
    public Member current() {
        return current;
    }

    /**
     * Retired keys still remembered, newest first.
     *
     * @return at most {@value #MAX_RETIRED} members, unmodifiable
     */
    public List<Member> retired() {
        return retired;
    }

    /**
     * The member with this key id: the current key or a remembered retired one.
     *
     * @param keyId a 32-byte key id
     * @return the member, or empty if the key is not (or no longer) in the chain
     */
    public Optional<Member> member(byte[] keyId) {
        if (current.hasKeyId(keyId)) {
            return Optional.of(current);
        }
        return retired.stream().filter(m -> m.hasKeyId(keyId)).findFirst();
    }

    /**
     * {@link #follow(SignedKeyHandover, Predicate)} with no other chains to check against.
     *
     * @param handover the signed statement received
     * @return the outcome and the chain afterwards
     */
    public Step follow(SignedKeyHandover handover) {
        return follow(handover, id -> false);
    }

    /**
     * Checks a handover against this chain and, if it is the next one and verifies under the current
     * key, returns the chain that continues with its new key.
     *
     * @param handover the signed statement received
     * @param usedElsewhere tells whether a key id belongs to another sensor the operator follows
     * @return the outcome and the chain afterwards
     */
    public Step follow(SignedKeyHandover handover, Predicate<byte[]> usedElsewhere) {
        KeyHandover s = handover.statement();
        if (!MessageDigest.isEqual(s.chainId(), chainId)) {
            return new Step(HandoverOutcome.FOREIGN_CHAIN, this);
        }
        long g = current.generation();
        byte[] newId = s.newKeyId();
        if (s.sequence() == g && g > 0 && current.hasKeyId(newId)) {
            // The sensor keeps its latest statement on a node; every reconnect reads it again.
            return new Step(HandoverOutcome.ALREADY_FOLLOWED, this);
        }
        if (s.sequence() <= g) {
            // An older statement, or another key for the current generation: never sent by a
            // genuine sensor, which publishes each handover once and then only its latest.
            return new Step(HandoverOutcome.REPLAYED, this);
        }
        if (s.sequence() > g + 1) {
            return new Step(HandoverOutcome.OUT_OF_ORDER, this);
        }
        if (!s.isSignedFor(current.keyId)
                || !s.oldParameterSet().equals(current.key.parameterSet().setName())) {
            return new Step(HandoverOutcome.WRONG_SIGNER, this);
        }
        if (!handover.isSignedBy(current.key)) {
            return new Step(HandoverOutcome.BAD_SIGNATURE, this);
        }
        if (member(newId).isPresent() || usedElsewhere.test(newId)) {
            return new Step(HandoverOutcome.KEY_REUSED, this);
        }
        List<Member> nextRetired = new ArrayList<>(MAX_RETIRED);
        nextRetired.add(new Member(g, current.key, s.handoverIndex()));
        for (Member m : retired) {
            if (nextRetired.size() == MAX_RETIRED) {
                break;
            }
            nextRetired.add(m);
        }
        return new Step(
                HandoverOutcome.FOLLOWED, new KeyChain(chainId, new Member(s.sequence(), s.newKey(), -1), nextRetired));
    }

    /**
     * The persisted form (docs/formats/key-handover.md, "Followed chain state").
     *
     * @return the encoded chain with its check value, a new array
     */
    public byte[] encode() {
        ByteWriter w = new ByteWriter().raw(MAGIC).u8(VERSION).raw(chainId);
        writeMember(w, current);
        w.u8(retired.size());
        for (Member m : retired) {
            writeMember(w, m);
        }
        byte[] body = w.toByteArray();
        return new ByteWriter()
                .raw(body)
                .raw(Digests.checkValue(body, body.length, CHECK_BYTES))
                .toByteArray();
    }

    private static void writeMember(ByteWriter w, Member m) {
        byte[] key = m.key.rawEncoding();
        w.u64(m.generation)
                .u64(m.retiredAt < 0 ? -1L : m.retiredAt)
                .name(m.key.parameterSet().setName())
                .u16(key.length)
                .raw(key);
    }

    /**
     * Decodes a persisted chain strictly; {@code expectedChainId} guards against a state file of
     * another sensor.
     *
     * @param state the persisted bytes
     * @param expectedChainId the chain id the state must have, or null to accept any
     * @return the chain
     * @throws KeyFormatException if the bytes are not a valid chain state of that chain
     */
    public static KeyChain decode(byte[] state, byte[] expectedChainId) {
        Objects.requireNonNull(state, "state");
        if (state.length < CHECK_BYTES + 4) {
            throw new KeyFormatException("key chain state is only " + state.length + " bytes");
        }
        int bodyLen = state.length - CHECK_BYTES;
        if (!MessageDigest.isEqual(
                Digests.checkValue(state, bodyLen, CHECK_BYTES), Arrays.copyOfRange(state, bodyLen, state.length))) {
            throw new KeyFormatException("key chain state check value does not match (corrupted file)");
        }
        StrictReader r = new StrictReader(Arrays.copyOf(state, bodyLen), "key chain state");
        r.expect(MAGIC, "magic");
        int version = r.u8("version");
        if (version != VERSION) {
            throw new KeyFormatException("key chain state version " + version + " is not supported (only 1)");
        }
        byte[] chainId = r.bytes(PublicKeys.KEY_ID_BYTES, "chain id");
        if (expectedChainId != null && !MessageDigest.isEqual(chainId, expectedChainId)) {
            throw new KeyFormatException(
                    "key chain state belongs to chain " + Hex.encode(chainId).substring(0, 16) + "…, not "
                            + Hex.encode(expectedChainId).substring(0, 16) + "…");
        }
        Member current = readMember(r, false);
        int n = r.u8("retired count");
        if (n > MAX_RETIRED) {
            throw new KeyFormatException("key chain state lists " + n + " retired keys, at most " + MAX_RETIRED);
        }
        List<Member> retired = new ArrayList<>(n);
        long previous = current.generation;
        for (int i = 0; i < n; i++) {
            Member m = readMember(r, true);
            if (m.generation >= previous) {
                throw new KeyFormatException("key chain state retired generations are not strictly decreasing");
            }
            previous = m.generation;
            retired.add(m);
        }
        r.end();
        if (current.generation == 0 && !MessageDigest.isEqual(current.keyId, chainId)) {
            throw new KeyFormatException("key chain state generation 0 key is not the chain's first key");
        }
        return new KeyChain(chainId, current, retired);
    }

    private static Member readMember(StrictReader r, boolean retiredMember) {
        long generation = r.u63("generation");
        long retiredAt = r.u63OrMinusOne("retired-at index");
        if (retiredMember != (retiredAt >= 0)) {
            throw new KeyFormatException("key chain state "
                    + (retiredMember ? "retired key has no" : "current key has a") + " retired-at index");
        }
        String set = r.name("parameter set");
        int len = r.u16("public key length");
        if (len < 1 || len > KeyHandover.MAX_PUBLIC_KEY_BYTES) {
            throw new KeyFormatException("key chain state public key length " + len + " is out of range");
        }
        // PublicKeys.decode takes the one spelling of the set's name only (the state re-encodes to its bytes).
        return new Member(generation, PublicKeys.decode(set, r.bytes(len, "public key")), retiredAt);
    }

    @Override
    public String toString() {
        return "KeyChain[" + Hex.encode(chainId).substring(0, 16) + "…, generation " + current.generation() + ", "
                + retired.size() + " retired remembered]";
    }
}
