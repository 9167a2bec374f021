package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.core.Digests;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.telemetry.CertificateEnrolment;
import dev.pqsign.telemetry.operator.DeviceCaTrust;
import dev.pqsign.x509.PqCertificate;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * The operator's certificate enrolment record ({@code PQCE}, docs/formats/certificate-enrolment.md)
 * that lets it resume a sensor after the sensor's first certificate expired:
 * {@link CertificateEnrolment#decode}, then {@link DeviceCaTrust#resumed}.
 *
 * <p>Input: a mode byte, then the record. Bit 0 of the mode: recompute the trailing 16-byte check
 * value, so that the fields behind it are reached; bit 1: the sensor is the HAETAE sensor under the
 * line CA (a chain of two), else the XMSS sensor the root issued directly (a chain of one).
 *
 * <p>Asserts: decoding throws only {@link KeyFormatException}; a decoded record re-encodes to its
 * input and its time lies in 1970 … 9999; resuming throws only {@link IllegalArgumentException}.
 * <b>No false resumption</b>, against what the fixture's certificates are known to be: the chain
 * is resumed exactly when the record names the chain's SHA-256 (the genuine record's digest bytes)
 * and its time lies inside every certificate's validity period (notBefore 2026-01-01, the sensors'
 * notAfter 2036-01-01, both inclusive, to the millisecond the record keeps), never for a record of
 * another chain or a time outside.
 */
class CertificateEnrolmentFuzzTest {
    private static final int CHECK_BYTES = 16;
    /** Offset and length of the chain digest in the record: magic 4, version 1, chain id 32, time 8. */
    private static final int DIGEST_AT = 45;

    private static final int DIGEST_BYTES = 32;

    /** The XMSS sensor's chain (root-issued) and the HAETAE sensor's chain (leaf, line CA). */
    private static final List<List<PqCertificate>> CHAINS = List.of(
            List.of(FuzzCertificates.committed().get(3)),
            List.of(
                    FuzzCertificates.committed().get(2),
                    FuzzCertificates.committed().get(1)));

    private static final byte[][] GENUINE = {genuine(0), genuine(1)};

    private static byte[] genuine(int chain) {
        return CertificateEnrolment.of(CHAINS.get(chain), FuzzCertificates.NOT_BEFORE)
                .encode();
    }

    /** A genuine record of chain {@code chain} at {@code at} (for the seed corpus). */
    static byte[] record(int chain, Instant at) {
        return CertificateEnrolment.of(CHAINS.get(chain), at).encode();
    }

    @FuzzTest
    void fuzz(byte[] data) {
        if (data.length < 1) {
            return;
        }
        int mode = data[0] & 0xff;
        byte[] bytes = Arrays.copyOfRange(data, 1, data.length);
        if ((mode & 1) != 0 && bytes.length >= CHECK_BYTES) {
            byte[] check = Digests.checkValue(bytes, bytes.length - CHECK_BYTES, CHECK_BYTES);
            System.arraycopy(check, 0, bytes, bytes.length - CHECK_BYTES, CHECK_BYTES);
        }
        int chain = (mode >> 1) & 1;
        List<PqCertificate> first = CHAINS.get(chain);
        CertificateEnrolment e;
        try {
            e = CertificateEnrolment.decode(bytes, CertificateEnrolment.chainId(first));
        } catch (KeyFormatException documented) {
            return;
        }
        assertArrayEquals(bytes, e.encode(), "a decoded record re-encodes to its input");
        Instant t = e.validatedAt();
        assertTrue(!t.isBefore(Instant.EPOCH) && t.isBefore(Instant.parse("+10000-01-01T00:00:00Z")));
        boolean sameChain = Arrays.equals(
                bytes, DIGEST_AT, DIGEST_AT + DIGEST_BYTES, GENUINE[chain], DIGEST_AT, DIGEST_AT + DIGEST_BYTES);
        assertEquals(sameChain, e.isOf(first), "isOf disagrees with the record's digest bytes");
        boolean inside = !t.isBefore(FuzzCertificates.NOT_BEFORE) && !t.isAfter(FuzzCertificates.LEAF_NOT_AFTER);
        boolean resumed;
        try {
            DeviceCaTrust.resumed(first, FuzzCertificates.root(), e);
            resumed = true;
        } catch (IllegalArgumentException documented) {
            resumed = false;
        }
        assertEquals(
                sameChain && inside,
                resumed,
                "resumption of chain " + chain + " with a record of " + (sameChain ? "this" : "another") + " chain at "
                        + t);
    }
}
