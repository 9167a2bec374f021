package dev.pqsign.telemetry.operator;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * What a sensor keeps about its keys besides its records, for an operator that must catch up on
 * key handovers it missed: the sensor's list of key handovers and of the certificate chains of its
 * keys (OPC UA: the histories of {@code current.key.handover} and {@code current.key.certificates}),
 * or at least their current values. Every method may ask the sensor; a sensor that cannot be asked
 * now is an {@link IOException}, and whatever depended on the answer is judged later.
 */
public interface KeyHistory {

    /**
     * Every key handover the sensor keeps, oldest first.
     *
     * @return the encoded handover records; empty if the sensor keeps no list (then use {@link #latest()})
     * @throws IOException if the sensor cannot be asked now
     */
    Optional<List<byte[]>> handovers() throws IOException;

    /**
     * Every key certificate chain the sensor keeps, oldest first.
     *
     * @return the encoded chains; empty if the sensor keeps no list (then use {@link #latest()})
     * @throws IOException if the sensor cannot be asked now
     */
    Optional<List<byte[]>> certificateChains() throws IOException;

    /**
     * The sensor's latest key handover and the certificate chain it published with it, read together.
     *
     * @return both values; an empty array where the sensor has none
     * @throws IOException if the sensor cannot be asked now
     */
    Latest latest() throws IOException;

    /**
     * A sensor's latest handover and certificate chain.
     *
     * @param handover the encoded handover record, or empty
     * @param certificates the encoded certificate chain, or empty
     */
    record Latest(byte[] handover, byte[] certificates) {
        /**
         * Copies nothing; null is taken as empty.
         *
         * @param handover the encoded handover record, or empty
         * @param certificates the encoded certificate chain, or empty
         */
        public Latest {
            handover = handover == null ? new byte[0] : handover;
            certificates = certificates == null ? new byte[0] : certificates;
        }
    }

    /** A source that keeps nothing (records that arrive in order with their handovers, e.g. from a topic). */
    KeyHistory NONE = new KeyHistory() {
        @Override
        public Optional<List<byte[]>> handovers() {
            return Optional.of(List.of());
        }

        @Override
        public Optional<List<byte[]>> certificateChains() {
            return Optional.of(List.of());
        }

        @Override
        public Latest latest() {
            return new Latest(null, null);
        }
    };
}
