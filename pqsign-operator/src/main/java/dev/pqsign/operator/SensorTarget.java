package dev.pqsign.operator;

import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.operator.DeviceCaTrust;
import dev.pqsign.x509.PqPublicKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * One sensor an operator watches.
 *
 * @param name the name its verdicts carry
 * @param url its endpoint URL
 * @param firstKey its trusted first key (pinned, or certified)
 * @param security the transport security to use
 * @param serverCertificates its application certificates to trust (secure transport)
 * @param deviceCa in certificate mode its device CA binding (every new key needs a chain it accepts), else null
 * @param resumed why a certificate-mode chain is resumed although its first certificate is not valid now, or null
 */
public record SensorTarget(
        String name,
        String url,
        PqPublicKey firstKey,
        TransportSecurity security,
        List<X509Certificate> serverCertificates,
        DeviceCaTrust deviceCa,
        String resumed) {
    /**
     * Checks and copies the parts.
     *
     * @param name the name its verdicts carry
     * @param url its endpoint URL
     * @param firstKey its trusted first key
     * @param security the transport security to use
     * @param serverCertificates its application certificates to trust
     * @param deviceCa its device CA binding, or null
     * @param resumed why a chain is resumed, or null
     */
    public SensorTarget {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(firstKey, "firstKey");
        Objects.requireNonNull(security, "security");
        serverCertificates = List.copyOf(serverCertificates);
    }
}
