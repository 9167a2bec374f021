package dev.pqsign.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.Digests;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.x509.PqPublicKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyChainTest {
    static final Instant T = Instant.parse("2026-12-01T12:00:00Z");

    @TempDir
    Path dir;

    /** Three generations of real keys: k0 -> k1 -> k2, with their signed handovers. */
    final class ThreeGenerations implements AutoCloseable {
        final TestKeys.OpenKey k0;
        final TestKeys.OpenKey k1;
        final TestKeys.OpenKey k2;
        final SignedKeyHandover h1;
        final SignedKeyHandover h2;

        ThreeGenerations() throws Exception {
            k0 = TestKeys.open(dir.resolve("k0.state"));
            k1 = TestKeys.open(dir.resolve("k1.state"));
            k2 = TestKeys.open(dir.resolve("k2.state"));
            byte[] chain = PublicKeys.keyId(k0.publicKey());
            h1 = SignedKeyHandover.sign(k0.signer(), k0.publicKey(), chain, 1, k1.publicKey(), T);
            h2 = SignedKeyHandover.sign(k1.signer(), k1.publicKey(), chain, 2, k2.publicKey(), T);
        }

        @Override
        public void close() {
            k0.close();
            k1.close();
            k2.close();
        }
    }

    @Test
    void follow_genuineHandovers_movesTrustAlongTheChain() throws Exception {
        try (ThreeGenerations g = new ThreeGenerations()) {
            KeyChain c0 = KeyChain.startingAt(g.k0.publicKey());
            KeyChain.Step s1 = c0.follow(g.h1);
            assertEquals(HandoverOutcome.FOLLOWED, s1.outcome());
            KeyChain.Step s2 = s1.chain().follow(g.h2);
            assertEquals(HandoverOutcome.FOLLOWED, s2.outcome());
            KeyChain c2 = s2.chain();
            assertEquals(2, c2.current().generation());
            assertEquals(g.k2.publicKey(), c2.current().key());
            assertEquals(2, c2.retired().size());
            assertEquals(
                    g.h2.statement().handoverIndex(),
                    c2.member(PublicKeys.keyId(g.k1.publicKey())).orElseThrow().retiredAt());
            assertArrayEquals(c0.chainId(), c2.chainId());
        }
    }

    @Test
    void follow_latestHandoverAgain_isAlreadyFollowed() throws Exception {
        try (ThreeGenerations g = new ThreeGenerations()) {
            KeyChain c1 = KeyChain.startingAt(g.k0.publicKey()).follow(g.h1).chain();
            KeyChain.Step again = c1.follow(g.h1);
            assertEquals(HandoverOutcome.ALREADY_FOLLOWED, again.outcome());
            assertSame(c1, again.chain());
        }
    }

    @Test
    void follow_oldStatementReplayed_isAlarm() throws Exception {
        try (ThreeGenerations g = new ThreeGenerations()) {
            KeyChain c2 = KeyChain.startingAt(g.k0.publicKey())
                    .follow(g.h1)
                    .chain()
                    .follow(g.h2)
                    .chain();
            KeyChain.Step s = c2.follow(g.h1);
            assertEquals(HandoverOutcome.REPLAYED, s.outcome());
            assertTrue(s.outcome().isAlarm());
            assertSame(c2, s.chain());
        }
    }

    @Test
    void follow_skippedGeneration_isOutOfOrder() throws Exception {
        try (ThreeGenerations g = new ThreeGenerations()) {
            assertEquals(
                    HandoverOutcome.OUT_OF_ORDER,
                    KeyChain.startingAt(g.k0.publicKey()).follow(g.h2).outcome());
        }
    }

    @Test
    void follow_statementSignedByAnotherKey_isRejected() throws Exception {
        try (ThreeGenerations g = new ThreeGenerations();
                TestKeys.OpenKey attacker = TestKeys.open(dir.resolve("x"))) {
            byte[] chain = PublicKeys.keyId(g.k0.publicKey());
            // Names the attacker's key as signer: not the chain's current key.
            SignedKeyHandover own = SignedKeyHandover.sign(
                    attacker.signer(), attacker.publicKey(), chain, 1, TestKeys.freshPublicKey(), T);
            assertEquals(
                    HandoverOutcome.WRONG_SIGNER,
                    KeyChain.startingAt(g.k0.publicKey()).follow(own).outcome());
            // Names the chain's key as signer but carries the attacker's signature.
            KeyHandover claim = KeyHandover.of(chain, 1, g.k0.publicKey(), 0, T, attacker.publicKey());
            byte[] sig = attacker.signer().sign(claim.encode());
            SignedKeyHandover forged = forge(claim.encode(), sig);
            assertEquals(
                    HandoverOutcome.BAD_SIGNATURE,
                    KeyChain.startingAt(g.k0.publicKey()).follow(forged).outcome());
        }
    }

    @Test
    void follow_tamperedNewKey_isBadSignature() throws Exception {
        try (ThreeGenerations g = new ThreeGenerations()) {
            byte[] st = g.h1.statementBytes();
            PqPublicKey other = TestKeys.freshPublicKey();
            byte[] otherKey = other.rawEncoding();
            System.arraycopy(otherKey, 0, st, st.length - otherKey.length, otherKey.length);
            SignedKeyHandover tampered = forge(st, g.h1.signature());
            assertEquals(
                    HandoverOutcome.BAD_SIGNATURE,
                    KeyChain.startingAt(g.k0.publicKey()).follow(tampered).outcome());
        }
    }

    @Test
    void follow_handoverOfAnotherSensor_isForeignChain() throws Exception {
        try (ThreeGenerations g = new ThreeGenerations()) {
            KeyChain otherSensor = KeyChain.startingAt(TestKeys.freshPublicKey());
            assertEquals(HandoverOutcome.FOREIGN_CHAIN, otherSensor.follow(g.h1).outcome());
        }
    }

    @Test
    void follow_newKeyOfAnotherSensor_isKeyReused() throws Exception {
        try (ThreeGenerations g = new ThreeGenerations()) {
            byte[] k1 = PublicKeys.keyId(g.k1.publicKey());
            KeyChain.Step s = KeyChain.startingAt(g.k0.publicKey()).follow(g.h1, id -> Arrays.equals(id, k1));
            assertEquals(HandoverOutcome.KEY_REUSED, s.outcome());
        }
    }

    @Test
    void encode_decode_roundTripsAndRefusesOtherChainsAndCorruption() throws Exception {
        try (ThreeGenerations g = new ThreeGenerations()) {
            KeyChain c2 = KeyChain.startingAt(g.k0.publicKey())
                    .follow(g.h1)
                    .chain()
                    .follow(g.h2)
                    .chain();
            byte[] state = c2.encode();
            KeyChain d = KeyChain.decode(state, c2.chainId());
            assertArrayEquals(state, d.encode());
            assertEquals(2, d.current().generation());
            assertThrows(KeyFormatException.class, () -> KeyChain.decode(state, PublicKeys.keyId(g.k1.publicKey())));
            for (int i = 0; i < state.length; i++) {
                byte[] bad = state.clone();
                bad[i] ^= 0x40;
                assertThrows(KeyFormatException.class, () -> KeyChain.decode(bad, c2.chainId()), "byte " + i);
            }
        }
    }

    /** Found by KeyChainStateFuzzTest (docs/fuzzing.md, finding 5): a set name in another case was accepted. */
    @Test
    void decode_parameterSetNameInOtherCase_throws() throws Exception {
        try (ThreeGenerations g = new ThreeGenerations()) {
            KeyChain c0 = KeyChain.startingAt(g.k0.publicKey());
            byte[] state = c0.encode();
            byte[] name = g.k0.publicKey().parameterSet().setName().getBytes(StandardCharsets.US_ASCII);
            int at = indexOf(state, name);
            byte[] lower = new String(name, StandardCharsets.US_ASCII)
                    .toLowerCase(Locale.ROOT)
                    .getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(lower, 0, state, at, lower.length);
            int body = state.length - 16;
            System.arraycopy(Digests.checkValue(state, body, 16), 0, state, body, 16);
            assertThrows(KeyFormatException.class, () -> KeyChain.decode(state, c0.chainId()));
        }
    }

    private static int indexOf(byte[] b, byte[] part) {
        for (int i = 0; i + part.length <= b.length; i++) {
            if (Arrays.equals(Arrays.copyOfRange(b, i, i + part.length), part)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }

    private static SignedKeyHandover forge(byte[] statement, byte[] signature) {
        byte[] rec = new byte[13 + statement.length + signature.length];
        System.arraycopy("PQHO".getBytes(StandardCharsets.US_ASCII), 0, rec, 0, 4);
        rec[4] = 1;
        putInt(rec, 5, statement.length);
        System.arraycopy(statement, 0, rec, 9, statement.length);
        putInt(rec, 9 + statement.length, signature.length);
        System.arraycopy(signature, 0, rec, 13 + statement.length, signature.length);
        return SignedKeyHandover.decode(rec);
    }

    private static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }
}
