package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.keys.KeyChain;
import dev.pqsign.keys.KeyHandover;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.telemetry.HandoverCheck;
import dev.pqsign.telemetry.operator.KeyChainFollower;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.ReplayGuard;
import dev.pqsign.telemetry.operator.TrustedKeys;
import dev.pqsign.xmss.XmssSignatures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The signed key handover record ({@code PQHO}, docs/formats/key-handover.md) and what an operator
 * does with one: {@link SignedKeyHandover#decode}, {@link KeyChain#follow} from the fixed chain of
 * {@link FuzzHandovers} at generation 0, 1 or 2, and {@link KeyChainFollower#receive} (the operator's
 * entry point, persisting the chain it follows).
 *
 * <p>Input: a mode byte, then the record. Mode mod 3 is the generation of the immutable chain the
 * record is offered to; an odd mode / 3 offers it to the one long-lived follower as well.
 *
 * <p>Asserts: decoding throws only {@link KeyFormatException}, and a decoded record re-encodes to
 * its input; {@code follow} and {@code receive} never throw; <b>differentially</b>, a handover is
 * {@code FOLLOWED} exactly when it names the chain, the next generation and the current key as its
 * signer, BouncyCastle 1.87 verifies its signature under the current key with the embedded index
 * equal to the handover index, and its new key is not already in the chain; the chain after
 * {@code FOLLOWED} continues with the statement's key and remembers the old one retired at the
 * handover index; a rejected handover leaves the chain (and the follower's persisted file) unchanged.
 */
class KeyHandoverFuzzTest {
    private static final KeyChain[] CHAINS = {
        FuzzHandovers.chainAt(0), FuzzHandovers.chainAt(1), FuzzHandovers.chainAt(2)
    };
    private static final BouncyCastle.Xmss[] BC = new BouncyCastle.Xmss[FuzzHandovers.GENERATIONS.size()];
    private static Follower follower;

    /** The operator's follower of the fixed chain, with the verifier of that sensor. */
    private static final class Follower {
        final Path dir = ScratchDirectory.create("pqsign-fuzz-chains");
        final KeyChainFollower chains;
        final ReadingVerifier verifier;

        Follower() throws IOException {
            chains = new KeyChainFollower(dir.resolve("chains"));
            verifier = new ReadingVerifier(
                    ReplayGuard.inDirectory(dir.resolve("replay")), List.of(TrustedKeys.of(FuzzHandovers.key(0))));
            chains.follow(FuzzHandovers.key(0), verifier);
        }
    }

    @FuzzTest
    void fuzz(byte[] data) throws IOException {
        if (data.length < 1) {
            return;
        }
        int mode = data[0] & 0xff;
        byte[] record = Arrays.copyOfRange(data, 1, data.length);
        if ((mode / 3) % 2 == 1) {
            receive(record);
        }
        SignedKeyHandover h;
        try {
            h = SignedKeyHandover.decode(record);
        } catch (KeyFormatException documented) {
            return;
        }
        assertArrayEquals(record, h.encode(), "a decoded handover record re-encodes to its input");
        assertArrayEquals(h.statementBytes(), h.statement().encode(), "a decoded statement re-encodes");
        assertNotNull(h.toString());
        KeyChain chain = CHAINS[mode % 3];
        KeyChain.Step step = chain.follow(h);
        boolean valid = isNextAndGenuine(chain, h);
        assertEquals(
                valid,
                step.outcome() == HandoverOutcome.FOLLOWED,
                "outcome " + step.outcome() + " but the handover is " + (valid ? "" : "not ") + "genuine and next");
        if (valid) {
            assertFollowed(chain, h, step.chain());
        } else {
            assertArrayEquals(chain.encode(), step.chain().encode(), "a rejected handover changed the chain");
        }
    }

    /** Through the operator's follower: the same oracle, and the persisted chain is what it follows. */
    static void receive(byte[] record) throws IOException {
        Follower f = follower();
        byte[] chainId = CHAINS[0].chainId();
        KeyChain before = f.chains.chain(chainId);
        HandoverCheck check = f.chains.receive(record, f.verifier);
        assertNotNull(check.verdict());
        KeyChain after = f.chains.chain(chainId);
        if (check.outcome() == HandoverOutcome.MALFORMED) {
            assertNull(check.handover());
        }
        if (check.outcome() == HandoverOutcome.FOLLOWED) {
            assertTrue(isNextAndGenuine(before, check.handover()), "followed a handover that is not genuine");
            assertFollowed(before, check.handover(), after);
            assertArrayEquals(
                    after.encode(),
                    DurableFiles.readAll(chainFile(f, chainId), 1 << 20),
                    "the persisted chain is the followed one");
        } else {
            assertArrayEquals(before.encode(), after.encode(), "a rejected handover changed the follower's chain");
            if (check.handover() != null && isNextAndGenuine(before, check.handover())) {
                throw new AssertionError("a genuine next handover was rejected: " + check.detail());
            }
        }
    }

    private static Path chainFile(Follower f, byte[] chainId) {
        return f.dir.resolve("chains").resolve(Hex.encode(chainId) + ".pqkc");
    }

    /**
     * The oracle: the statement names this chain, its next generation and its current key and set as
     * the signer; BouncyCastle verifies the signature under the current key and the signature's index
     * is the handover index; the new key is not a member already.
     */
    private static boolean isNextAndGenuine(KeyChain chain, SignedKeyHandover h) {
        KeyHandover s = h.statement();
        KeyChain.Member current = chain.current();
        if (!Arrays.equals(s.chainId(), chain.chainId())
                || s.sequence() != current.generation() + 1
                || !s.isSignedFor(current.keyId())
                || !s.oldParameterSet().equals(current.key().parameterSet().setName())
                || chain.member(s.newKeyId()).isPresent()) {
            return false;
        }
        int g = (int) current.generation();
        if (!bc(g).verify(h.statementBytes(), h.signature())) {
            return false;
        }
        return XmssSignatures.index(FuzzHandovers.GENERATIONS.get(g), h.signature()) == s.handoverIndex();
    }

    private static void assertFollowed(KeyChain before, SignedKeyHandover h, KeyChain after) {
        KeyHandover s = h.statement();
        assertEquals(s.newKey(), after.current().key(), "the chain continues with the statement's key");
        assertEquals(before.current().generation() + 1, after.current().generation());
        KeyChain.Member retired = after.retired().get(0);
        assertEquals(before.current().key(), retired.key(), "the old key is remembered");
        assertEquals(s.handoverIndex(), retired.retiredAt(), "retired at the handover index");
    }

    private static synchronized BouncyCastle.Xmss bc(int g) {
        if (BC[g] == null) {
            BC[g] = new BouncyCastle.Xmss(FuzzKeys.xmssPublicKey(FuzzHandovers.GENERATIONS.get(g)));
        }
        return BC[g];
    }

    private static synchronized Follower follower() {
        if (follower == null) {
            try {
                follower = new Follower();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return follower;
    }
}
