package dev.pqsign.kafka;

import dev.pqsign.x509.PqPublicKey;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a verifier trusts: per sensor name, the first key pinned for it (a public key, or the key of
 * a certificate that was validated against a trust root). Later keys are trusted only through key
 * handovers that chain back to it. Immutable.
 */
public final class SensorTrust {
    private final Map<String, PqPublicKey> pinned;

    private SensorTrust(Map<String, PqPublicKey> pinned) {
        this.pinned = pinned;
    }

    /**
     * The trust of a verifier: each sensor's first key, pinned.
     *
     * @param pinned sensor name → first pinned key (at least one sensor; names as in
     *     {@link SensorIdentity})
     */
    public static SensorTrust of(Map<String, PqPublicKey> pinned) {
        Objects.requireNonNull(pinned, "pinned");
        if (pinned.isEmpty()) {
            throw new IllegalArgumentException("at least one sensor must be pinned");
        }
        Map<String, PqPublicKey> copy = new LinkedHashMap<>();
        pinned.forEach((name, key) -> {
            SensorIdentity.encode(name);
            copy.put(name, Objects.requireNonNull(key, "key of " + name));
        });
        return new SensorTrust(Collections.unmodifiableMap(copy));
    }

    /** The first key pinned for {@code sensor}, or null if the sensor is not configured. */
    public PqPublicKey pinned(String sensor) {
        return pinned.get(sensor);
    }

    /** The configured sensor names. */
    public Set<String> sensors() {
        return pinned.keySet();
    }

    @Override
    public String toString() {
        return "SensorTrust[" + pinned.size() + " sensors]";
    }
}
