package dev.pqsign.telemetry.operator;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.StateStore;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.internal.MarkFile;
import dev.pqsign.telemetry.internal.StateCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Accepts an index for a key only if it is strictly greater than the last index accepted for that
 * key, and persists the new high-water mark durably before saying yes, so neither a restart nor a
 * second operator process sharing the state can reopen a replay.
 *
 * <p>Per-key state (45 bytes, see {@code docs/formats/signed-reading.md}): ASCII {@code "PQRG"},
 * version byte 1, the 32-byte key id (so a state file of another key is refused), u64 big-endian
 * lowest index still acceptable (0 before the first reading; last accepted + 1 after).
 *
 * <p>Thread-safe. Different keys proceed in parallel; calls for one key are serialized.
 * {@link #inDirectory} keeps all keys in one {@link MarkFile} with group commit.
 */
public final class ReplayGuard implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ReplayGuard.class.getName());

    static final byte[] MAGIC = {'P', 'Q', 'R', 'G'};
    static final int VERSION = 1;
    static final int STATE_BYTES = 4 + 1 + KeyId.BYTES + 8;

    /** Opens the durable store holding one key's replay state (e.g. a file named by the key id). */
    @FunctionalInterface
    public interface StoreProvider {
        /**
         * Opens (not necessarily creates) the store for {@code key}.
         *
         * @param key the key whose replay state the store holds
         * @return the store
         * @throws IOException if the store cannot be opened
         */
        StateStore open(KeyId key) throws IOException;
    }

    /** Where the marks live: one store per key, or one group-committed file for all keys. */
    private interface Backend {
        /** The durable mark of {@code key} (creating the key's state if needed). */
        long load(KeyId key) throws IOException;

        /**
         * Accepts {@code index} if not below the mark, raising the mark first: durably, or (with
         * {@code flush} false, where the store can) written for the next {@link #sync} to make durable.
         */
        MarkFile.Outcome accept(KeyId key, long index, boolean flush) throws IOException;

        /** Makes every mark written without a flush durable. */
        void sync() throws IOException;

        void close() throws IOException;
    }

    /**
     * The lowest mark a key may have whatever its store says: one above the highest index that
     * something other than the marks proves was accepted.
     */
    @FunctionalInterface
    public interface MarkFloor {
        /**
         * The floor of {@code key}'s mark.
         *
         * @param key the key
         * @return the lowest index {@code key} may still accept; 0 if nothing is known
         * @throws IOException if the evidence exists but cannot be read (the key's state is then unusable)
         */
        long of(KeyId key) throws IOException;
    }

    /**
     * A mark raised to its floor when a key's state was loaded.
     *
     * @param key the key
     * @param stored the mark its store held (0 if it held none)
     * @param floor the mark it has now
     */
    public record RebuiltMark(KeyId key, long stored, long floor) {}

    private static final MarkFloor NO_FLOOR = key -> 0;

    private final MarkFloor floor;
    private final Backend backend;
    private final Map<KeyId, KeyState> keys = new HashMap<>();
    private final List<RebuiltMark> rebuilt = new ArrayList<>();

    /** The name of the group-committed mark file inside the directory given to {@link #inDirectory}. */
    public static final String MARK_FILE_NAME = "replay-marks.pqrm";

    /**
     * A guard keeping the state of every key in one file, {@code dir}/{@value #MARK_FILE_NAME} (a
     * {@link MarkFile}: per key two checksummed records overwritten in place, cross-process lock,
     * and group commit: the marks of all keys accepted at the same time share one
     * {@code fdatasync}), every key starting at mark 0. The directory is created if missing.
     *
     * @param dir the operator's replay state directory
     * @return the guard
     * @throws IOException if the directory or the mark file cannot be created, or the file is not a mark file
     */
    public static ReplayGuard inDirectory(Path dir) throws IOException {
        return inDirectory(dir, NO_FLOOR);
    }

    /**
     * As {@link #inDirectory(Path)}, with a floor under every key's mark: what the operator's data
     * directory still proves was accepted (a {@link MarkRecovery}). A key whose mark in the file is
     * lower (the file deleted, truncated, or replaced by an older copy) starts at the floor instead,
     * and is listed in {@link #rebuiltMarks()}.
     *
     * @param dir the operator's replay state directory
     * @param floor the lowest mark each key may have
     * @return the guard
     * @throws IOException if the directory or the mark file cannot be created, or the file is not a mark file
     */
    public static ReplayGuard inDirectory(Path dir, MarkFloor floor) throws IOException {
        Objects.requireNonNull(floor, "floor");
        Files.createDirectories(dir);
        MarkFile marks = MarkFile.open(dir.resolve(MARK_FILE_NAME), key -> 0);
        return new ReplayGuard(floor, new Backend() {
            @Override
            public long load(KeyId key) throws IOException {
                return marks.read(key);
            }

            @Override
            public MarkFile.Outcome accept(KeyId key, long index, boolean flush) throws IOException {
                return flush ? marks.advance(key, index) : marks.advanceUnflushed(key, index);
            }

            @Override
            public void sync() throws IOException {
                marks.sync();
            }

            @Override
            public void close() throws IOException {
                marks.close();
            }
        });
    }

    /**
     * A guard keeping each key's state in its own store (one durable write per accepted reading,
     * nothing shared between keys).
     *
     * @param provider opens each key's store on first use
     */
    public ReplayGuard(StoreProvider provider) {
        Objects.requireNonNull(provider, "provider");
        this.floor = NO_FLOOR;
        Map<KeyId, StateStore> stores = new HashMap<>();
        this.backend = new Backend() {
            private StateStore store(KeyId key) throws IOException {
                synchronized (stores) {
                    StateStore s = stores.get(key);
                    if (s == null) {
                        s = provider.open(key);
                        stores.put(key, s);
                    }
                    return s;
                }
            }

            @Override
            public long load(KeyId key) throws IOException {
                StateStore store = store(key);
                byte[] bytes = StateCodec.readOrCreate(store, encode(key, 0));
                return decode(key, bytes, store.describe());
            }

            @Override
            public void sync() {
                // every write of a StateStore is durable when it returns
            }

            @Override
            public MarkFile.Outcome accept(KeyId key, long index, boolean flush) throws IOException {
                StateStore store = store(key);
                boolean[] accepted = {false};
                byte[] written;
                try {
                    written = store.update(cur -> {
                        long persisted = decode(key, cur, store.describe());
                        if (index < persisted) {
                            return cur; // another process got there first
                        }
                        accepted[0] = true;
                        return encode(key, index + 1);
                    });
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
                return new MarkFile.Outcome(accepted[0], decode(key, written, store.describe()));
            }

            @Override
            public void close() throws IOException {
                IOException first = null;
                synchronized (stores) {
                    for (StateStore s : stores.values()) {
                        try {
                            s.close();
                        } catch (IOException e) {
                            if (first == null) {
                                first = e;
                            }
                        }
                    }
                    stores.clear();
                }
                if (first != null) {
                    throw first;
                }
            }
        };
    }

    private ReplayGuard(MarkFloor floor, Backend backend) {
        this.floor = floor;
        this.backend = backend;
    }

    private static final class KeyState {
        long nextAcceptable;

        KeyState(long nextAcceptable) {
            this.nextAcceptable = nextAcceptable;
        }
    }

    private KeyState state(KeyId key) throws IOException {
        synchronized (keys) {
            KeyState s = keys.get(key);
            if (s == null) {
                long stored = backend.load(key);
                long proven = floor.of(key);
                if (proven < 0) {
                    throw new IOException("floor of key " + key.hex() + "'s mark is negative");
                }
                if (proven > stored) {
                    rebuilt.add(new RebuiltMark(key, stored, proven));
                    LOG.log(
                            Level.WARNING,
                            "replay mark of key {0} was {1} but the data directory proves index {2} was accepted;"
                                    + " the mark is rebuilt at {3}",
                            key.hex(),
                            stored,
                            proven - 1,
                            proven);
                }
                s = new KeyState(Math.max(stored, proven));
                keys.put(key, s);
            }
            return s;
        }
    }

    /**
     * The keys whose mark was below its floor when first loaded by this guard (lost or rewound marks).
     *
     * @return a snapshot, in the order the keys were loaded
     */
    public List<RebuiltMark> rebuiltMarks() {
        synchronized (keys) {
            return List.copyOf(rebuilt);
        }
    }

    /**
     * Cheap pre-check without side effects: would {@code index} be fresh for {@code key} now?
     *
     * @param key the reading's key
     * @param index the reading's index
     * @return whether {@code index} is above the last accepted index of {@code key}
     * @throws IOException if the key's state cannot be opened
     */
    public boolean isFresh(KeyId key, long index) throws IOException {
        KeyState s = state(key);
        synchronized (s) {
            return index >= s.nextAcceptable;
        }
    }

    /**
     * Accepts {@code index} if it is above the last accepted index of {@code key}, persisting the new
     * mark before returning {@code true}. The check is repeated under the store's lock, so two
     * processes sharing a store cannot both accept the same index. Calls for one key are
     * serialized; calls for different keys proceed in parallel (with {@link #inDirectory}, their
     * writes share flushes).
     *
     * @param key the reading's key
     * @param index the reading's index; negative and {@code Long.MAX_VALUE} are never accepted
     * @return {@code true} if accepted, {@code false} if it is a replay (or reordered / older)
     * @throws IOException if the state cannot be made durable (nothing is accepted then)
     */
    public boolean tryAccept(KeyId key, long index) throws IOException {
        return tryAccept(key, index, true);
    }

    /**
     * As {@link #tryAccept(KeyId, long)}; with {@code flush} false the new mark may be only
     * written (seen by every process sharing the store, so none accepts {@code index} again) and
     * is durable once {@link #sync()} returned: until then {@code index} must not be reported
     * accepted. A store that writes durably anyway ({@link #ReplayGuard(StoreProvider)}) does so.
     */
    boolean tryAccept(KeyId key, long index, boolean flush) throws IOException {
        if (index < 0 || index == Long.MAX_VALUE) {
            return false; // Long.MAX_VALUE has no successor to persist as the next acceptable index
        }
        KeyState s = state(key);
        synchronized (s) {
            if (index < s.nextAcceptable) {
                return false;
            }
            MarkFile.Outcome o = backend.accept(key, index, flush);
            s.nextAcceptable = o.nextAcceptable();
            return o.accepted();
        }
    }

    /**
     * Makes the marks raised by {@code tryAccept(key, index, false)} so far durable, with one flush.
     *
     * @throws IOException if they cannot be made durable: none of those indices may be reported accepted
     */
    void sync() throws IOException {
        backend.sync();
    }

    /**
     * The last accepted index of {@code key}, or -1 if none was accepted yet.
     *
     * @param key the key
     * @return the index, or -1
     * @throws IOException if the key's state cannot be opened
     */
    public long lastAccepted(KeyId key) throws IOException {
        KeyState s = state(key);
        synchronized (s) {
            return s.nextAcceptable - 1;
        }
    }

    static byte[] encode(KeyId key, long nextAcceptable) {
        byte[] b = new byte[STATE_BYTES];
        System.arraycopy(MAGIC, 0, b, 0, 4);
        b[4] = VERSION;
        System.arraycopy(key.bytes(), 0, b, 5, KeyId.BYTES);
        StateCodec.putLong(b, 5 + KeyId.BYTES, nextAcceptable);
        return b;
    }

    static long decode(KeyId key, byte[] b, String where) {
        if (b.length != STATE_BYTES || !Arrays.equals(b, 0, 4, MAGIC, 0, 4)) {
            throw new KeyFormatException("replay state at " + where + " is not a PQRG state (" + b.length
                    + " bytes, expected " + STATE_BYTES + ")");
        }
        if (b[4] != VERSION) {
            throw new KeyFormatException(
                    "replay state at " + where + " has version " + (b[4] & 0xff) + ", expected " + VERSION);
        }
        if (!Arrays.equals(b, 5, 5 + KeyId.BYTES, key.bytes(), 0, KeyId.BYTES)) {
            throw new KeyFormatException("replay state at " + where + " belongs to another key than " + key.hex());
        }
        long v = StateCodec.getLong(b, 5 + KeyId.BYTES);
        if (v < 0) {
            throw new KeyFormatException("replay state at " + where + " holds a negative index");
        }
        return v;
    }

    /** Closes every opened store. */
    @Override
    public void close() throws IOException {
        synchronized (keys) {
            keys.clear();
        }
        backend.close();
    }
}
