package dev.pqsign.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pqsign.state.DurableFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per sensor, the source time of the newest record the broker acknowledged (acks=all): where the
 * bridge's history backfill resumes after a restart, so a restart neither re-sends the sensor's
 * whole history nor misses what arrived while it was down. Kept in {@code DIR/}{@value #FILE}
 * (format in {@code docs/formats/kafka-records.md}), written durably by {@link #save()}.
 */
public final class BridgePositions {
    /** File name inside the bridge's data directory. */
    public static final String FILE = "bridge-positions.json";

    static final String FORMAT = "pqsign-bridge-positions";
    static final int VERSION = 1;
    private static final int MAX_BYTES = 1 << 20;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Path file;
    private final Map<String, Instant> acknowledged = new ConcurrentHashMap<>();
    private volatile boolean dirty;

    private BridgePositions(Path file) {
        this.file = file;
    }

    /**
     * Loads the positions kept in {@code dir} (none if the file does not exist).
     *
     * @throws IOException if the file cannot be read or is not a positions file of this version
     */
    public static BridgePositions open(Path dir) throws IOException {
        BridgePositions p = new BridgePositions(dir.resolve(FILE));
        byte[] bytes;
        try {
            bytes = DurableFiles.readAll(p.file, MAX_BYTES);
        } catch (NoSuchFileException e) {
            return p;
        }
        try {
            JsonNode root = MAPPER.readTree(new String(bytes, StandardCharsets.UTF_8));
            if (root == null
                    || !FORMAT.equals(root.path("format").asText())
                    || root.path("version").asInt() != VERSION
                    || !root.path("positions").isObject()) {
                throw new IOException(p.file + ": not a " + FORMAT + " file of version " + VERSION);
            }
            Iterator<Map.Entry<String, JsonNode>> it = root.get("positions").fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                SensorIdentity.encode(e.getKey());
                p.acknowledged.put(e.getKey(), Instant.parse(e.getValue().asText()));
            }
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new IOException(p.file + ": " + e.getMessage(), e);
        }
        return p;
    }

    /** Where the backfill of {@code sensor} starts: just after its acknowledged position, or the epoch. */
    public Instant backfillFrom(String sensor) {
        Instant at = acknowledged.get(sensor);
        return at == null ? Instant.EPOCH : at.plusNanos(1);
    }

    /** The broker acknowledged a record of {@code sensor} with this source time. */
    public void acknowledged(String sensor, Instant sourceTime) {
        acknowledged.merge(sensor, sourceTime, (a, b) -> a.isAfter(b) ? a : b);
        dirty = true;
    }

    /** The acknowledged position of {@code sensor}, if any. */
    public Optional<Instant> position(String sensor) {
        return Optional.ofNullable(acknowledged.get(sensor));
    }

    /** Writes the positions durably if they changed (temporary file, fsync, rename). */
    public synchronized void save() throws IOException {
        if (!dirty) {
            return;
        }
        dirty = false;
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("version", VERSION);
        ObjectNode positions = root.putObject("positions");
        acknowledged.forEach((s, t) -> positions.put(s, t.toString()));
        try {
            DurableFiles.writeAtomically(file, root.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            dirty = true;
            throw e;
        }
    }
}
