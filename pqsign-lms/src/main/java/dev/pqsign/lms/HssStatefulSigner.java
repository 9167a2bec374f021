package dev.pqsign.lms;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.SigningFaultException;
import dev.pqsign.core.StatePersistenceException;
import dev.pqsign.core.StateStore;
import dev.pqsign.core.StatefulSigner;
import dev.pqsign.core.internal.OneTimeSigning;
import dev.pqsign.core.internal.StatefulSignerCore;
import java.io.IOException;
import java.util.Objects;
import java.util.function.LongFunction;

/**
 * Signs with an HSS key whose state lives in a {@link StateStore}, and never reuses an index:
 * <ol>
 * <li>Reserve: under the store's lock (threads and processes), re-read the state file, check it is
 * still this key's and has not been rolled back, advance its next index by the batch size, and write
 * it durably. Only then is any index of that batch used.</li>
 * <li>Sign with the reserved indices in order, from in-memory trees rebuilt from the SEED when the
 * key is opened; each lower level's tree comes with the signature of its public key by the level
 * above, computed once, verified before it is first used, and kept.</li>
 * </ol>
 * If the state cannot be written, the signer releases no signature and becomes unusable. A crash
 * loses at most the unused rest of the current batch (batch 1 by default: nothing is lost).
 *
 * <p><b>No signing spikes</b>: the next tree of each lower level, and when a tree keeps only a
 * block of its leaves' nodes (a tree larger than {@link HssSignerOptions#withTreeCacheBytes} allows) the
 * next block, are built a few hash chains per signature, paced so that they are complete when the
 * index reaches them; no signature rebuilds a tree.
 *
 * <p><b>Reserving ahead</b> ({@link HssSignerOptions#withReserveAhead(boolean)}): as soon as a signature
 * uses the last reserved index, the next batch is reserved on a background thread, which also does
 * the signature's upkeep (its share of the next trees); a sign that arrives first does both itself,
 * under the same lock. No index is used before its reservation is on disk; a crash can lose one
 * reserved index more, and a persistence failure is reported by the next {@code sign}.
 *
 * <p><b>Fault checks</b>: every upper-level signature is verified before use; the randomizers and
 * lower trees' SEED and I are derived twice and compared; a block rebuilt from the SEED is compared
 * with the nodes kept above it. {@link HssSignerOptions#withVerifyAfterSign(boolean)} also verifies every
 * bottom-level signature before it is released. A failed check throws
 * {@link SigningFaultException} and makes the signer unusable (docs/stateful-signing.md).
 *
 * <pre>{@code
 * try (StateStore store = FileStateStore.open(Path.of("key.state"));
 *      HssStatefulSigner signer = HssStatefulSigner.open(store)) {
 *     byte[] sig = signer.sign(message);
 * }
 * }</pre>
 */
public final class HssStatefulSigner implements StatefulSigner {
    private final StateStore store;
    private final HssPrivateKey key;
    private final HssPublicKey publicKey;
    private final HssSigning signing;
    /**
     * Reservation, batches, reserving ahead, the lock, failures and close: the part every stateful
     * scheme shares; this class adds the HSS levels' trees and their upper signatures.
     */
    private final StatefulSignerCore<HssKeyState> core;

    private HssStatefulSigner(StateStore store, HssKeyState state, HssSignerOptions o) {
        this.store = store;
        this.key = state.key();
        this.publicKey = key.publicKey();
        this.signing = new HssSigning(key, state.endIndex(), o.treeCacheBytes(), o.threads(), o.verifyAfterSign());
        this.core = new StatefulSignerCore<>(
                store, HssKeyState.FORMAT, state, o.batch(), o.reserveAhead(), "hss", new LevelSigning());
    }

    /**
     * Opens the key in {@code store} with {@link HssSignerOptions#defaults()}.
     *
     * @param store the key's state store; the signer uses it until {@link #close()} and does not close it
     * @return a signer positioned at the stored next index
     * @throws KeyFormatException if the stored bytes are not a valid key state
     * @throws StatePersistenceException if the store cannot be read
     * @throws SigningFaultException if the rebuilt top tree does not match the public key
     */
    public static HssStatefulSigner open(StateStore store) {
        return open(store, HssSignerOptions.defaults());
    }

    /**
     * Opens the key in {@code store} as {@code options} say, rebuilding the trees the stored next
     * index needs (the cost of a key generation of each level's tree).
     *
     * @param store the key's state store; the signer uses it until {@link #close()} and does not close it
     * @param options batch size, threads and signing options
     * @return a signer positioned at the stored next index
     * @throws KeyFormatException if the stored bytes are not a valid key state
     * @throws StatePersistenceException if the store cannot be read
     * @throws SigningFaultException if the rebuilt top tree does not match the public key
     */
    public static HssStatefulSigner open(StateStore store, HssSignerOptions options) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(options, "options");
        return new HssStatefulSigner(store, StatefulSignerCore.read(store, HssKeyState.FORMAT), options);
    }

    /**
     * Creates the state of a new key in {@code store} (fails if one exists) and returns it.
     *
     * @param store the empty store that will hold the key's state
     * @param key a key just made by {@link HssKeyGenerator}
     * @return the stored state, at index 0
     * @throws IOException if a state already exists in {@code store} or it cannot be written durably
     * @throws IllegalArgumentException if {@code key} was read from a key state
     * @throws IllegalStateException if {@code key} was destroyed
     */
    public static HssKeyState create(StateStore store, HssPrivateKey key) throws IOException {
        return StatefulSignerCore.create(store, HssKeyState.FORMAT, HssKeyState.fresh(key));
    }

    @Override
    public byte[] sign(byte[] message) {
        return core.sign(message);
    }

    @Override
    public IndexedSignature signIndexed(LongFunction<byte[]> messageForIndex) {
        return core.signIndexed(messageForIndex);
    }

    @Override
    public HssParameterSet parameterSet() {
        return key.parameterSet();
    }

    /**
     * The key's public key (also after {@link #close()}).
     *
     * @return the public key
     */
    public HssPublicKey publicKey() {
        return publicKey;
    }

    @Override
    public long remaining() {
        return core.remaining();
    }

    @Override
    public long nextIndex() {
        return core.nextIndex();
    }

    /**
     * Indices reserved on disk but not yet used by this signer (lost if the process dies now).
     *
     * @return the number of reserved, unused indices
     */
    public long reservedUnused() {
        return core.reservedUnused();
    }

    @Override
    public boolean isUsable() {
        return core.isUsable();
    }

    /**
     * Gives unused reserved indices back when that is provably safe (the stored next index is still
     * exactly our reservation end, so nobody else has used or reserved beyond it), then wipes the key.
     */
    @Override
    public void close() {
        core.close();
    }

    /** The HSS half of the signer: every level's trees, and the upper signatures, at reserved indices. */
    private final class LevelSigning implements OneTimeSigning {
        @Override
        public void prepare(long next, long end) {
            signing.prepare(next);
        }

        @Override
        public byte[] sign(long index, byte[] message) {
            return signing.sign(index, message);
        }

        @Override
        public void afterSign(long signed, long end) {
            // HssSigning schedules its next trees up to the end index the key was opened with.
            signing.afterSign(signed);
        }

        @Override
        public void moveTo(long index) {
            signing.moveTo(index);
        }

        @Override
        public void destroy() {
            signing.wipe();
            key.destroy();
        }
    }

    @Override
    public String toString() {
        return "HssStatefulSigner[" + key.parameterSet().setName() + ", " + store.describe() + "]";
    }
}
