package dev.pqsign.telemetry;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.StateStore;
import dev.pqsign.state.FileStateStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.HashMap;
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
 */
public final class ReplayGuard implements AutoCloseable {

    static final byte[] MAGIC = {'P', 'Q', 'R', 'G'};
    static final int VERSION = 1;
    static final int STATE_BYTES = 4 + 1 + KeyId.BYTES + 8;

    /** Opens the durable store holding one key's replay state (e.g. a file named by the key id). */
    @FunctionalInterface
    public interface StoreProvider {
        /** Opens (not necessarily creates) the store for {@code key}. */
        StateStore open(KeyId key) throws IOException;
    }

    private final StoreProvider provider;
    private final Map<KeyId, KeyState> keys = new HashMap<>();

    /**
     * A guard keeping each key's state in {@code dir}/{@code <key id hex>.marks} (a
     * {@link SlotFileStore}: two checksummed slots overwritten in place, one {@code fdatasync} per
     * accepted reading, cross-process lock). The directory is created if missing.
     *
     * <p>A key's state written by earlier versions ({@code <key id hex>.replay}, a
     * {@code FileStateStore}) is carried over when its {@code .marks} file is first created, so an
     * upgrade does not reopen replays; the old file is left in place and no longer written.
     */
    public static ReplayGuard inDirectory(Path dir) throws IOException {
        Files.createDirectories(dir);
        return new ReplayGuard(key -> {
            SlotFileStore store = SlotFileStore.open(dir.resolve(key.hex() + ".marks"));
            Path legacy = dir.resolve(key.hex() + ".replay");
            if (!store.exists() && Files.exists(legacy)) {
                byte[] previous;
                try (FileStateStore old = FileStateStore.open(legacy)) {
                    previous = old.read();
                }
                decode(key, previous, legacy.toString()); // refuse to carry over a foreign or broken state
                try {
                    store.create(previous);
                } catch (java.nio.file.FileAlreadyExistsException raced) {
                    // another process carried it over first
                }
            }
            return store;
        });
    }

    /** @param provider opens each key's store on first use */
    public ReplayGuard(StoreProvider provider) {
        this.provider = Objects.requireNonNull(provider, "provider");
    }

    private static final class KeyState {
        final StateStore store;
        long nextAcceptable;

        KeyState(StateStore store, long nextAcceptable) {
            this.store = store;
            this.nextAcceptable = nextAcceptable;
        }
    }

    private KeyState state(KeyId key) throws IOException {
        synchronized (keys) {
            KeyState s = keys.get(key);
            if (s == null) {
                StateStore store = provider.open(key);
                try {
                    byte[] bytes = StateCodec.readOrCreate(store, encode(key, 0));
                    s = new KeyState(store, decode(key, bytes, store.describe()));
                } catch (IOException | RuntimeException e) {
                    store.close();
                    throw e;
                }
                keys.put(key, s);
            }
            return s;
        }
    }

    /**
     * Cheap pre-check without side effects: would {@code index} be fresh for {@code key} now?
     *
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
     * processes sharing a store cannot both accept the same index.
     *
     * @return {@code true} if accepted, {@code false} if it is a replay (or reordered / older)
     * @throws IOException if the state cannot be made durable (nothing is accepted then)
     */
    public boolean tryAccept(KeyId key, long index) throws IOException {
        if (index < 0 || index == Long.MAX_VALUE) {
            return false; // Long.MAX_VALUE has no successor to persist as the next acceptable index
        }
        KeyState s = state(key);
        synchronized (s) {
            if (index < s.nextAcceptable) {
                return false;
            }
            boolean[] accepted = {false};
            byte[] written;
            try {
                written = s.store.update(cur -> {
                    long persisted = decode(key, cur, s.store.describe());
                    if (index < persisted) {
                        return cur; // another process got there first
                    }
                    accepted[0] = true;
                    return encode(key, index + 1);
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            s.nextAcceptable = decode(key, written, s.store.describe());
            return accepted[0];
        }
    }

    /** The last accepted index of {@code key}, or -1 if none was accepted yet. */
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
            throw new KeyFormatException("replay state at " + where + " has version " + (b[4] & 0xff) + ", expected " + VERSION);
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
        IOException first = null;
        synchronized (keys) {
            for (KeyState s : keys.values()) {
                try {
                    s.store.close();
                } catch (IOException e) {
                    if (first == null) {
                        first = e;
                    }
                }
            }
            keys.clear();
        }
        if (first != null) {
            throw first;
        }
    }
}
