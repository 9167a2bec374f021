package dev.pqsign.telemetry.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pqsign.core.ParameterSet;
import dev.pqsign.core.Verifier;
import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.FaultInjector;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.ReadingSigner;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.Verdict.Reason;
import dev.pqsign.testing.MemoryStateStore;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ReadingVerifierTest {

    private final Ed25519TestDouble key = Ed25519TestDouble.generate();
    private final Map<KeyId, MemoryStateStore> stores = new HashMap<>();
    private ReadingSigner signer;
    private ReadingVerifier verifier;

    @BeforeEach
    void setUp() throws IOException {
        signer = new ReadingSigner(SequencedSigner.open(key.signer(), MemoryStateStore.empty("seq"), 1));
        verifier = newVerifier(EmbeddedIndex.NONE);
    }

    private ReadingVerifier newVerifier(EmbeddedIndex embedded) {
        ReplayGuard guard = new ReplayGuard(k -> stores.computeIfAbsent(k, x -> MemoryStateStore.empty(x.hex())));
        return new ReadingVerifier(guard, new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), embedded));
    }

    private Reason check(SignedReading r) {
        return verifier.check(key.keyId(), Ed25519TestDouble.PARAMS.setName(), r)
                .reason();
    }

    @Test
    void check_freshValidReading_accepted() {
        assertEquals(Reason.ACCEPTED, check(signer.sign("1500.00,2026-11-30T00:00:00.000000000Z")));
        assertEquals(Reason.ACCEPTED, check(signer.sign("1500.01,2026-11-30T00:00:00.000000001Z")));
    }

    @Test
    void check_tamperedReading_badSignature() {
        SignedReading r = signer.sign("1500.00,2026-11-30T00:00:00.000000000Z");
        assertEquals(Reason.BAD_SIGNATURE, check(FaultInjector.withTamperedReading(r)));
        assertEquals(Reason.ACCEPTED, check(r), "a rejected forgery must not consume the index");
    }

    @Test
    void check_readingMovedToOtherIndex_badSignature() {
        SignedReading r = signer.sign("1500.00,2026-11-30T00:00:00.000000000Z");
        assertEquals(Reason.BAD_SIGNATURE, check(new SignedReading(r.reading(), r.index() + 1, r.signature())));
    }

    @Test
    void check_replayAndReorder_replayed() {
        SignedReading r0 = signer.sign("a");
        SignedReading r1 = signer.sign("b");
        assertEquals(Reason.ACCEPTED, check(r1));
        assertEquals(Reason.REPLAYED, check(r1));
        assertEquals(Reason.REPLAYED, check(r0), "older reading delivered late is rejected");
    }

    @Test
    void check_afterOperatorRestart_replayRejected() {
        SignedReading r = signer.sign("a");
        assertEquals(Reason.ACCEPTED, check(r));
        verifier = newVerifier(EmbeddedIndex.NONE);
        assertEquals(Reason.REPLAYED, check(r));
    }

    @Test
    void check_embeddedIndexDiffers_indexMismatch() {
        verifier = newVerifier(sig -> OptionalLong.of(999));
        assertEquals(Reason.INDEX_MISMATCH, check(signer.sign("a")));
    }

    @Test
    void check_embeddedIndexMissing_malformed() {
        verifier = newVerifier(sig -> OptionalLong.empty());
        assertEquals(Reason.MALFORMED, check(signer.sign("a")));
    }

    @Test
    void check_embeddedIndexEqual_accepted() {
        verifier = newVerifier(sig -> OptionalLong.of(0));
        assertEquals(Reason.ACCEPTED, check(signer.sign("a")));
    }

    @Test
    void check_wrongSignatureLengthOrEmptyReading_malformed() {
        SignedReading r = signer.sign("a");
        assertEquals(
                Reason.MALFORMED, check(new SignedReading(r.reading(), r.index(), Arrays.copyOf(r.signature(), 63))));
        assertEquals(Reason.MALFORMED, check(new SignedReading(r.reading(), r.index(), new byte[0])));
        assertEquals(Reason.MALFORMED, check(new SignedReading("", r.index(), r.signature())));
    }

    @Test
    void check_unpinnedKeyOrOtherSet_unknownKey() {
        SignedReading r = signer.sign("a");
        assertEquals(
                Reason.UNKNOWN_KEY,
                verifier.check(KeyId.ofPublicKey(new byte[] {9}), null, r).reason());
        assertEquals(
                Reason.UNKNOWN_KEY, verifier.check(key.keyId(), "HAETAE-2", r).reason());
        assertEquals(Reason.ACCEPTED, verifier.check(null, null, r).reason());
    }

    @Test
    void check_otherKeysSignature_badSignature() throws IOException {
        Ed25519TestDouble other = Ed25519TestDouble.generate();
        ReadingSigner otherSigner =
                new ReadingSigner(SequencedSigner.open(other.signer(), MemoryStateStore.empty("o"), 1));
        assertEquals(Reason.BAD_SIGNATURE, check(otherSigner.sign("a")));
    }

    @Test
    void check_verifierThrows_rejectedNotCrashed() {
        Verifier throwing = new Verifier() {
            @Override
            public boolean verify(byte[] message, byte[] signature) {
                throw new ArrayIndexOutOfBoundsException("buggy verifier");
            }

            @Override
            public ParameterSet parameterSet() {
                return Ed25519TestDouble.PARAMS;
            }
        };
        ReadingVerifier v = new ReadingVerifier(
                new ReplayGuard(k -> MemoryStateStore.empty("g")),
                new ReadingVerifier.TrustedKey(key.keyId(), throwing, EmbeddedIndex.NONE));
        assertEquals(
                Reason.MALFORMED, v.check(key.keyId(), null, signer.sign("a")).reason());
    }

    @Test
    void check_replayStateUnwritable_stateErrorAndNotAccepted() {
        assertEquals(Reason.ACCEPTED, check(signer.sign("warm-up"))); // opens the store
        SignedReading r = signer.sign("a");
        stores.get(key.keyId()).failNextWrites(1);
        assertEquals(Reason.STATE_ERROR, check(r));
        assertEquals(Reason.ACCEPTED, check(r), "the failed write recorded nothing");
    }

    @Property(tries = 200)
    void check_garbageSignature_neverAccepted(@ForAll @Size(max = 80) byte[] garbage) throws IOException {
        setUp();
        assertEquals(
                garbage.length == 64 ? Reason.BAD_SIGNATURE : Reason.MALFORMED,
                check(new SignedReading("1500.00,x", 0, garbage)));
    }
}
