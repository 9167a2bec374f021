package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.core.Digests;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.keys.KeyChain;
import dev.pqsign.keys.SignedKeyHandover;
import java.util.Arrays;

/**
 * The followed-chain state file ({@code PQKC}, docs/formats/key-handover.md, "Followed chain state")
 * that an operator reads back at start-up: {@link KeyChain#decode}.
 *
 * <p>Input: a mode byte, then the file. Bit 0 of the mode: recompute the trailing 16-byte check
 * value, so that the fields behind it are reached; bit 1: decode with the fixed chain's id as the
 * expected one (as the operator does), else with none.
 *
 * <p>Asserts: decoding throws only {@link KeyFormatException}; a decoded chain re-encodes to its
 * input, belongs to the expected chain, has retired generations strictly decreasing below the
 * current one, at most {@link KeyChain#MAX_RETIRED} of them, all retired and the current one not;
 * following the committed handovers from a decoded chain never throws, and one it does not follow
 * leaves the chain unchanged.
 */
class KeyChainStateFuzzTest {
    private static final int CHECK_BYTES = 16;
    private static final byte[] CHAIN_ID = FuzzHandovers.chainAt(0).chainId();
    private static final SignedKeyHandover[] HANDOVERS = {FuzzHandovers.handover(1), FuzzHandovers.handover(2)};

    @FuzzTest
    void fuzz(byte[] data) {
        if (data.length < 1) {
            return;
        }
        int mode = data[0] & 0xff;
        byte[] state = Arrays.copyOfRange(data, 1, data.length);
        if ((mode & 1) != 0) {
            withCheckValue(state);
        }
        byte[] expected = (mode & 2) != 0 ? CHAIN_ID : null;
        KeyChain chain;
        try {
            chain = KeyChain.decode(state, expected);
        } catch (KeyFormatException documented) {
            return;
        }
        assertArrayEquals(state, chain.encode(), "a decoded chain state re-encodes to its input");
        if (expected != null) {
            assertArrayEquals(expected, chain.chainId());
        }
        assertFalse(chain.current().isRetired());
        assertTrue(chain.retired().size() <= KeyChain.MAX_RETIRED);
        long previous = chain.current().generation();
        for (KeyChain.Member m : chain.retired()) {
            assertTrue(m.isRetired());
            assertTrue(m.generation() < previous, "retired generations strictly decreasing");
            previous = m.generation();
        }
        if (chain.current().generation() == 0) {
            assertArrayEquals(chain.chainId(), chain.current().keyId(), "generation 0 is the chain's first key");
        }
        for (SignedKeyHandover h : HANDOVERS) {
            KeyChain.Step step = chain.follow(h);
            if (step.outcome() == HandoverOutcome.FOLLOWED) {
                assertEquals(
                        chain.current().generation() + 1, step.chain().current().generation());
            } else {
                assertArrayEquals(chain.encode(), step.chain().encode(), "a rejected handover changed the chain");
            }
        }
    }

    /** Replaces the last 16 bytes by the check value of the bytes before them. */
    private static void withCheckValue(byte[] state) {
        if (state.length < CHECK_BYTES) {
            return;
        }
        int body = state.length - CHECK_BYTES;
        System.arraycopy(Digests.checkValue(state, body, CHECK_BYTES), 0, state, body, CHECK_BYTES);
    }
}
