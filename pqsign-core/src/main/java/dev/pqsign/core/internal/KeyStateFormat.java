package dev.pqsign.core.internal;

import dev.pqsign.core.KeyFormatException;
import java.util.List;

/**
 * What the scheme-independent stateful machinery ({@link StatefulSignerCore}, {@link KeySplitter})
 * needs to know about one scheme's persisted key state {@code S}: how it is read and written, which
 * key it belongs to, and its index range. Everything else about the state stays with the scheme.
 *
 * @param <S> the scheme's immutable key state
 */
public interface KeyStateFormat<S> {

    /**
     * Decodes a stored state (the array is not modified and not kept).
     *
     * @param encoded the state file's content
     * @return the state, holding a fresh copy of the key's secrets
     * @throws KeyFormatException if the bytes are not a valid state of this scheme
     */
    S decode(byte[] encoded);

    /**
     * Encodes a state (the result holds secrets: the caller wipes it once written).
     *
     * @param state the state
     * @return a new array in the scheme's state file format
     */
    byte[] encode(S state);

    /**
     * The range of indices the state may still use.
     *
     * @param state the state
     * @return its range
     */
    IndexRange range(S state);

    /**
     * The same key with another next index (reserving moves it up, giving back an unused
     * reservation moves it down to where the signer stopped).
     *
     * @param state the state
     * @param next the new next index, within the state's range
     * @return a state sharing {@code state}'s key object
     */
    S withNextIndex(S state, long next);

    /**
     * Divides the state's remaining range as {@link IndexRange#split} does: the states of the same key
     * object for each part, lowest range first (a pure computation; {@link KeySplitter} does it
     * safely on disk).
     *
     * @param state the state
     * @param parts the number of parts
     * @return the parts' states
     * @throws dev.pqsign.core.KeyExhaustedException if no index is left to split
     * @throws IllegalArgumentException if {@code parts < 2} or {@code parts > remaining}
     */
    List<S> split(S state, int parts);

    /**
     * The identifier of the key the state belongs to (not secret), to notice a state file that now
     * holds another key.
     *
     * @param state the state
     * @return the key's identifier
     */
    byte[] keyId(S state);

    /**
     * Wipes the secrets of the state's key (every state sharing that key object is unusable after).
     *
     * @param state the state
     */
    void destroy(S state);
}
