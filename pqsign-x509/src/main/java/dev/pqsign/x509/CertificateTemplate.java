package dev.pqsign.x509;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.bouncycastle.asn1.x500.X500Name;

/**
 * What goes into a certificate besides the keys: subject name, validity, CA flag, path length, key
 * usage and serial number. Mutable builder; {@link Certificates} validates it when signing.
 *
 * <p>Defaults: a random positive 128-bit serial; key usage {keyCertSign, cRLSign} for a CA and
 * {digitalSignature} for an end entity.
 */
public final class CertificateTemplate {
    /** notBefore is set this far in the past by {@link #forDays}, so a sensor whose clock lags a little accepts it. */
    public static final Duration BACKDATE = Duration.ofMinutes(1);

    private static final SecureRandom RANDOM = new SecureRandom();

    private final X500Name subject;
    private Instant notBefore;
    private Instant notAfter;
    private boolean ca;
    private Integer pathLength;
    private Set<KeyUsageBit> keyUsage;
    private BigInteger serial;

    private CertificateTemplate(X500Name subject, Instant notBefore, Instant notAfter) {
        this.subject = subject;
        this.notBefore = Objects.requireNonNull(notBefore, "notBefore").truncatedTo(ChronoUnit.SECONDS);
        this.notAfter = Objects.requireNonNull(notAfter, "notAfter").truncatedTo(ChronoUnit.SECONDS);
    }

    /**
     * A template with explicit validity (truncated to whole seconds, as X.509 times are).
     *
     * @param subjectDn the subject's distinguished name in RFC 4514 form, e.g. {@code CN=sensor-17,O=Plant A}
     * @param notBefore the start of validity
     * @param notAfter the end of validity
     * @return a template for an end-entity certificate
     * @throws IllegalArgumentException if the DN cannot be parsed or notAfter is not after notBefore
     */
    public static CertificateTemplate of(String subjectDn, Instant notBefore, Instant notAfter) {
        CertificateTemplate t = new CertificateTemplate(parseDn(subjectDn), notBefore, notAfter);
        if (!t.notAfter.isAfter(t.notBefore)) {
            throw new IllegalArgumentException("notAfter " + t.notAfter + " must be after notBefore " + t.notBefore);
        }
        return t;
    }

    /**
     * Valid from now (minus {@link #BACKDATE}) for {@code validity}.
     *
     * @param subjectDn the subject's distinguished name in RFC 4514 form, e.g. {@code CN=sensor-17,O=Plant A}
     * @param validity how long the certificate is valid from now; positive
     * @param clock gives now
     * @return a template for an end-entity certificate
     * @throws IllegalArgumentException if the DN cannot be parsed or {@code validity} is not positive
     */
    public static CertificateTemplate valid(String subjectDn, Duration validity, Clock clock) {
        if (validity.isNegative() || validity.isZero()) {
            throw new IllegalArgumentException("validity must be positive, got " + validity);
        }
        Instant now = clock.instant();
        return of(subjectDn, now.minus(BACKDATE), now.plus(validity));
    }

    /**
     * Valid from now (minus {@link #BACKDATE}) for {@code days} days.
     *
     * @param subjectDn the subject's distinguished name in RFC 4514 form, e.g. {@code CN=sensor-17,O=Plant A}
     * @param days the number of days the certificate is valid from now, at least 1
     * @param clock gives now
     * @return a template for an end-entity certificate
     * @throws IllegalArgumentException if the DN cannot be parsed or {@code days < 1}
     */
    public static CertificateTemplate forDays(String subjectDn, int days, Clock clock) {
        if (days < 1) {
            throw new IllegalArgumentException("validity must be at least 1 day, got " + days);
        }
        return valid(subjectDn, Duration.ofDays(days), clock);
    }

    static X500Name parseDn(String dn) {
        Objects.requireNonNull(dn, "subjectDn");
        try {
            X500Name name = new X500Name(dn);
            if (name.getRDNs().length == 0) {
                throw new IllegalArgumentException("empty distinguished name");
            }
            return name;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "cannot parse distinguished name '" + dn + "' (expected e.g. " + "\"CN=sensor-17,O=Plant A\"): "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * Marks the certificate as a CA (basic constraints cA = TRUE) or as an end entity.
     *
     * @param isCa true for a CA certificate
     * @return this template
     */
    public CertificateTemplate ca(boolean isCa) {
        this.ca = isCa;
        return this;
    }

    /**
     * pathLenConstraint for a CA certificate.
     *
     * @param n the number of intermediate CA certificates allowed below this one, at least 0
     * @return this template
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public CertificateTemplate pathLength(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("path length must be non-negative, got " + n);
        }
        this.pathLength = n;
        return this;
    }

    /**
     * Explicit key usage bits (checked against RFC 9802's rules when signing).
     *
     * @param bits the usages, at least one; copied
     * @return this template
     * @throws IllegalArgumentException if {@code bits} is empty
     */
    public CertificateTemplate keyUsage(Set<KeyUsageBit> bits) {
        if (bits.isEmpty()) {
            throw new IllegalArgumentException("key usage must name at least one usage");
        }
        this.keyUsage = EnumSet.copyOf(bits);
        return this;
    }

    /**
     * An explicit serial number instead of a random one.
     *
     * @param s the serial number, positive
     * @return this template
     * @throws IllegalArgumentException if {@code s} is not positive
     */
    public CertificateTemplate serial(BigInteger s) {
        if (s.signum() <= 0) {
            throw new IllegalArgumentException("serial number must be positive");
        }
        this.serial = s;
        return this;
    }

    X500Name subject() {
        return subject;
    }

    /**
     * Start of validity.
     *
     * @return notBefore, in whole seconds
     */
    public Instant notBefore() {
        return notBefore;
    }

    /**
     * End of validity.
     *
     * @return notAfter, in whole seconds
     */
    public Instant notAfter() {
        return notAfter;
    }

    /**
     * Whether the certificate will be a CA.
     *
     * @return true for a CA certificate
     */
    public boolean isCa() {
        return ca;
    }

    Optional<Integer> pathLength() {
        return Optional.ofNullable(pathLength);
    }

    /**
     * The explicit or default key usage.
     *
     * @return a copy of the bits set, or {keyCertSign, cRLSign} for a CA and {digitalSignature} otherwise
     */
    public Set<KeyUsageBit> keyUsage() {
        if (keyUsage != null) {
            return EnumSet.copyOf(keyUsage);
        }
        return ca
                ? EnumSet.of(KeyUsageBit.KEY_CERT_SIGN, KeyUsageBit.CRL_SIGN)
                : EnumSet.of(KeyUsageBit.DIGITAL_SIGNATURE);
    }

    BigInteger serialOrRandom() {
        if (serial != null) {
            return serial;
        }
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        b[0] &= 0x7f;
        b[0] |= 0x40; // positive and a full 16 bytes, so the DER INTEGER has no leading-zero byte
        return new BigInteger(1, b);
    }
}
