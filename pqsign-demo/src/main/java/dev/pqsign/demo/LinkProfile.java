package dev.pqsign.demo;

import java.util.Locale;
import java.util.Objects;

/**
 * Parameters of an emulated network link, applied per direction by {@link LinkEmulator}.
 *
 * @param name profile name
 * @param oneWayDelayMs fixed propagation delay added to every chunk, per direction
 * @param jitterMs extra delay drawn uniformly from [0, jitterMs] per chunk (order is preserved)
 * @param bandwidthMbitPerS serialization rate per direction; 0 means unlimited
 */
public record LinkProfile(String name, double oneWayDelayMs, double jitterMs, double bandwidthMbitPerS) {

    /**
     * Switched industrial Ethernet: 0.1 ms one way, 0.05 ms jitter, 100 Mbit/s.
     */
    public static final LinkProfile ETHERNET = new LinkProfile("ethernet", 0.1, 0.05, 100);

    /**
     * A 5G industrial link calibrated to the study's extra transfer time over 5G: 10 ms one way, up
     * to 4 ms jitter, 1.35 Mbit/s, so that a reading's transfer grows with its signature's size as
     * the study's did (calibration and measurements: docs/telemetry.md, "Link emulation (LinkEmulator, LinkProfile)").
     */
    public static final LinkProfile FIVE_G = new LinkProfile("5g", 10, 4, 1.35);

    /** Direct loopback, no emulation (no relay is started). */
    public static final LinkProfile LOOPBACK = new LinkProfile("loopback", 0, 0, 0);

    /**
     * Checks the parameters.
     *
     * @param name profile name
     * @param oneWayDelayMs fixed propagation delay added to every chunk, per direction
     * @param jitterMs extra delay drawn uniformly from [0, jitterMs] per chunk (order is preserved)
     * @param bandwidthMbitPerS serialization rate per direction; 0 means unlimited
     * @throws IllegalArgumentException if a number is negative, NaN or infinite
     */
    public LinkProfile {
        Objects.requireNonNull(name, "name");
        if (!(oneWayDelayMs >= 0)
                || !(jitterMs >= 0)
                || !(bandwidthMbitPerS >= 0)
                || Double.isInfinite(oneWayDelayMs)
                || Double.isInfinite(jitterMs)
                || Double.isInfinite(bandwidthMbitPerS)) {
            throw new IllegalArgumentException("link parameters must be finite and non-negative");
        }
    }

    /**
     * {@code true} if this profile needs no relay.
     *
     * @return true if delay, jitter and bandwidth are all 0
     */
    public boolean isDirect() {
        return oneWayDelayMs == 0 && jitterMs == 0 && bandwidthMbitPerS == 0;
    }

    /**
     * Looks up a profile by name: {@code loopback}, {@code ethernet} or {@code 5g}.
     *
     * @param name the profile name, any case; {@code none} is {@code loopback}
     * @return the profile
     * @throws IllegalArgumentException for other names
     */
    public static LinkProfile named(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "loopback":
            case "none":
                return LOOPBACK;
            case "ethernet":
                return ETHERNET;
            case "5g":
                return FIVE_G;
            default:
                throw new IllegalArgumentException("unknown link profile '" + name + "' (loopback, ethernet, 5g)");
        }
    }
}
