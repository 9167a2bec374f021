package dev.pqsign.kafka.internal;

import dev.pqsign.core.StateStore;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One entry of a Kafka Streams key-value store seen as a {@link StateStore}, so the telemetry
 * module's replay guard keeps its per-key mark there. The store is changelogged and, under
 * {@code exactly_once_v2}, its changes commit atomically with the verdicts they led to: "durable"
 * here means "committed with the output", which is what makes a verdict and its state move
 * together. Used by one stream task thread only.
 */
public final class StoreEntry implements StateStore {
    private final KeyValueStore<String, byte[]> store;
    private final String key;

    public StoreEntry(KeyValueStore<String, byte[]> store, String key) {
        this.store = store;
        this.key = key;
    }

    @Override
    public byte[] read() {
        byte[] v = store.get(key);
        return v == null ? new byte[0] : v.clone();
    }

    @Override
    public byte[] update(StateUpdate fn) throws IOException {
        byte[] next = fn.apply(read());
        store.put(key, next.clone());
        return next;
    }

    @Override
    public void create(byte[] initial) throws IOException {
        if (store.get(key) != null) {
            throw new FileAlreadyExistsException(describe());
        }
        store.put(key, initial.clone());
    }

    @Override
    public String describe() {
        return "state store " + store.name() + " entry " + key;
    }

    @Override
    public void close() {
        // the store belongs to the stream task
    }
}
