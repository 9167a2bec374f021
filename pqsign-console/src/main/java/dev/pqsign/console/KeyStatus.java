package dev.pqsign.console;

import java.util.Objects;

/**
 * What a sensor's key has left, as the console shows it. Public key material only: the key id is a
 * hash of the public key, never a secret.
 *
 * @param sensor the sensor's name
 * @param parameterSet the canonical parameter-set name
 * @param keyIdHex the key id in hex
 * @param remaining signatures the key can still make (-1 if unknown or unlimited)
 * @param secondsLeft estimated seconds until the key is exhausted at the current rate, or null if unknown
 * @param nextKeyReady whether the successor key is prepared for a handover
 */
public record KeyStatus(
        String sensor, String parameterSet, String keyIdHex, long remaining, Double secondsLeft, boolean nextKeyReady) {

    /**
     * Checks the fields.
     *
     * @param sensor the sensor's name
     * @param parameterSet the canonical parameter-set name
     * @param keyIdHex the key id in hex
     * @param remaining signatures the key can still make, or -1 if unknown or unlimited
     * @param secondsLeft estimated seconds until the key is exhausted, non-negative, or null if unknown
     * @param nextKeyReady whether the successor key is prepared for a handover
     * @throws IllegalArgumentException if {@code remaining} is below -1 or {@code secondsLeft} is negative or NaN
     */
    public KeyStatus {
        Objects.requireNonNull(sensor, "sensor");
        Objects.requireNonNull(parameterSet, "parameterSet");
        Objects.requireNonNull(keyIdHex, "keyIdHex");
        if (remaining < -1) {
            throw new IllegalArgumentException("remaining must be -1 (unknown) or non-negative, got " + remaining);
        }
        if (secondsLeft != null && (secondsLeft.isNaN() || secondsLeft < 0)) {
            throw new IllegalArgumentException("secondsLeft must be non-negative, got " + secondsLeft);
        }
    }
}
