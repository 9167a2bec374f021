package dev.pqsign.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The key of every pqsign record in Kafka: the sensor's name (as in the operator's sensors file),
 * 1 … {@value #MAX_BYTES} printable ASCII characters (0x21–0x7e). Kafka partitions by key, so all
 * records of one sensor stay in one partition, in the order the bridge received them.
 */
public final class SensorIdentity {
    private SensorIdentity() {}

    /** Longest sensor name. */
    public static final int MAX_BYTES = 64;

    /** The key bytes of sensor {@code name}. */
    public static byte[] encode(String name) {
        Objects.requireNonNull(name, "name");
        byte[] b = name.getBytes(StandardCharsets.US_ASCII);
        check(b);
        if (!new String(b, StandardCharsets.US_ASCII).equals(name)) {
            throw new IllegalArgumentException("sensor name is not ASCII");
        }
        return b;
    }

    /**
     * The sensor name in a record key.
     *
     * @throws IllegalArgumentException if the key is missing or not a valid sensor name
     */
    public static String decode(byte[] key) {
        if (key == null) {
            throw new IllegalArgumentException("record has no key (the sensor identity)");
        }
        check(key);
        return new String(key, StandardCharsets.US_ASCII);
    }

    private static void check(byte[] b) {
        if (b.length < 1 || b.length > MAX_BYTES) {
            throw new IllegalArgumentException(
                    "sensor identity has " + b.length + " bytes, 1.." + MAX_BYTES + " allowed");
        }
        for (byte c : b) {
            if (c < 0x21 || c > 0x7e) {
                throw new IllegalArgumentException("sensor identity is not printable ASCII without spaces");
            }
        }
    }
}
