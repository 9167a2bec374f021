package dev.pqsign.telemetry.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.keys.KeyCertificateChain;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.telemetry.CertificateEnrolment;
import dev.pqsign.x509.CertificateTemplate;
import dev.pqsign.x509.Certificates;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules an operator in certificate mode applies to each new key's certificate chain, with real
 * XMSS^MT keys on real state files: the root, device CAs under it (genuine, without path length 0,
 * a leaf posing as a CA, another sensor's) and sensor key certificates.
 */
class DeviceCaTrustTest {
    /** Registered (RFC 9802) and quick to generate: the top tree has 32 leaves. */
    static final XmssParameterSet SET = XmssParameterSet.XMSSMT_SHA2_40_8_256;

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();
    private Ca root;
    private Ca deviceCa;
    private Instant now;

    /** A key with its signer on a real state file, and its certificate once issued. */
    final class Ca {
        final XmssStatefulSigner signer;
        final PqPublicKey key;
        PqCertificate cert;

        Ca(String name) throws IOException {
            XmssPrivateKey k = XmssKeyGenerator.generate(SET);
            FileStateStore store = FileStateStore.open(dir.resolve(name + ".state"));
            XmssStatefulSigner.create(store, k);
            k.destroy();
            signer = XmssStatefulSigner.open(store);
            key = PqPublicKey.of(signer.publicKey());
            open.add(signer);
            open.add(store);
        }
    }

    @BeforeEach
    void setUp() throws IOException {
        now = Instant.now();
        root = new Ca("root");
        root.cert = Certificates.selfSigned(root.signer, "CN=Plant Root,O=Test", 3650);
        deviceCa = deviceCa("a", t -> t.ca(true).pathLength(0));
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private Ca deviceCa(String name, UnaryOperator<CertificateTemplate> shape) throws IOException {
        Ca ca = new Ca(name);
        ca.cert = Certificates.issue(
                root.signer,
                root.cert,
                ca.key,
                shape.apply(CertificateTemplate.forDays("CN=device CA " + name + ",O=Test", 365, Clock.systemUTC())));
        return ca;
    }

    private static PqPublicKey sensorKey() {
        XmssPrivateKey k = XmssKeyGenerator.generate(SET);
        PqPublicKey pub = PqPublicKey.of(k.publicKey());
        k.destroy();
        return pub;
    }

    private static List<PqCertificate> certify(Ca ca, PqPublicKey key) {
        return List.of(Certificates.issue(ca.signer, ca.cert, key, "CN=sensor key,O=Test", 30, false), ca.cert);
    }

    private Optional<String> refusal(DeviceCaTrust trust, List<PqCertificate> chain, PqPublicKey key) {
        return trust.refusal(KeyCertificateChain.of(chain), key, now);
    }

    @Test
    void nextKeyCertifiedBySameDeviceCa_accepted() {
        PqPublicKey first = sensorKey();
        DeviceCaTrust trust = DeviceCaTrust.of(certify(deviceCa, first), root.cert, now);
        PqPublicKey next = sensorKey();

        assertEquals(Optional.empty(), refusal(trust, certify(deviceCa, next), next));
        assertEquals(deviceCa.cert, trust.issuer());
    }

    @Test
    void nextKeyCertifiedByAnotherDeviceCaUnderSameRoot_refused() throws IOException {
        DeviceCaTrust trust = DeviceCaTrust.of(certify(deviceCa, sensorKey()), root.cert, now);
        Ca other = deviceCa("b", t -> t.ca(true).pathLength(0));
        PqPublicKey next = sensorKey();

        Optional<String> r = refusal(trust, certify(other, next), next);

        assertTrue(r.orElseThrow().contains("another device CA"), r.toString());
    }

    @Test
    void deviceCaWithoutPathLengthZero_refused() throws IOException {
        DeviceCaTrust trust = DeviceCaTrust.of(certify(deviceCa, sensorKey()), root.cert, now);
        Ca unlimited = deviceCa("unlimited", t -> t.ca(true));
        Ca one = deviceCa("one", t -> t.ca(true).pathLength(1));
        PqPublicKey next = sensorKey();

        assertTrue(refusal(trust, certify(unlimited, next), next).orElseThrow().contains("path length absent"));
        assertTrue(refusal(trust, certify(one, next), next).orElseThrow().contains("path length 1"));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> DeviceCaTrust.of(certify(unlimited, next), root.cert, now));
        assertTrue(e.getMessage().contains("not a device CA"), e.getMessage());
    }

    @Test
    void leafPosingAsDeviceCa_refused() throws IOException {
        DeviceCaTrust trust = DeviceCaTrust.of(certify(deviceCa, sensorKey()), root.cert, now);
        // An end-entity certificate the root really issued; its key signs a "sensor key" certificate
        // (pqsign only issues under a CA certificate, so a CA-shaped self-signed twin names the issuer).
        Ca leaf = deviceCa("leaf", t -> t.ca(false));
        PqCertificate twin = Certificates.selfSigned(
                leaf.signer,
                leaf.key,
                CertificateTemplate.forDays("CN=device CA leaf,O=Test", 365, Clock.systemUTC())
                        .ca(true));
        PqPublicKey next = sensorKey();
        PqCertificate forged = Certificates.issue(leaf.signer, twin, next, "CN=sensor key,O=Test", 30, false);

        Optional<String> r = refusal(trust, List.of(forged, leaf.cert), next);

        assertTrue(r.orElseThrow().contains("not a ca"), r.toString());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> DeviceCaTrust.of(List.of(forged, leaf.cert), root.cert, now));
        assertTrue(e.getMessage().contains("not a ca"), e.getMessage());
    }

    @Test
    void sensorKeyCertificateThatIsACa_refused() {
        DeviceCaTrust trust = DeviceCaTrust.of(certify(deviceCa, sensorKey()), root.cert, now);
        PqPublicKey next = sensorKey();
        PqCertificate ca = Certificates.issue(
                deviceCa.signer,
                deviceCa.cert,
                next,
                CertificateTemplate.forDays("CN=sensor key,O=Test", 30, Clock.systemUTC())
                        .ca(true));

        Optional<String> r = refusal(trust, List.of(ca, deviceCa.cert), next);

        assertTrue(r.isPresent(), "a CA certificate is not a sensor key certificate");
    }

    @Test
    void certificateOfAnotherKey_refused() {
        DeviceCaTrust trust = DeviceCaTrust.of(certify(deviceCa, sensorKey()), root.cert, now);

        Optional<String> r = refusal(trust, certify(deviceCa, sensorKey()), sensorKey());

        assertTrue(r.orElseThrow().contains("another key"), r.toString());
    }

    @Test
    void expiredCertificate_refused() {
        PqPublicKey first = sensorKey();
        DeviceCaTrust trust = DeviceCaTrust.of(certify(deviceCa, first), root.cert, now);
        PqPublicKey next = sensorKey();
        List<PqCertificate> chain = certify(deviceCa, next);

        Optional<String> r = trust.refusal(KeyCertificateChain.of(chain), next, now.plus(Duration.ofDays(31)));

        assertTrue(r.orElseThrow().contains("expired"), r.toString());
    }

    @Test
    void chainUnderAnotherRoot_refused() throws IOException {
        DeviceCaTrust trust = DeviceCaTrust.of(certify(deviceCa, sensorKey()), root.cert, now);
        Ca otherRoot = new Ca("other-root");
        otherRoot.cert = Certificates.selfSigned(otherRoot.signer, "CN=Plant Root,O=Test", 3650);
        Ca foreign = new Ca("foreign");
        foreign.cert = Certificates.issue(
                otherRoot.signer,
                otherRoot.cert,
                foreign.key,
                CertificateTemplate.forDays("CN=device CA a,O=Test", 365, Clock.systemUTC())
                        .ca(true)
                        .pathLength(0));
        PqPublicKey next = sensorKey();

        Optional<String> r = refusal(trust, certify(foreign, next), next);

        assertTrue(r.orElseThrow().contains("not valid under the root"), r.toString());
    }

    @Test
    void resumed_firstChainExpiredSinceEnrolment_checkedAtEnrolmentTime_trusted() {
        PqPublicKey first = sensorKey();
        List<PqCertificate> chain = certify(deviceCa, first);
        CertificateEnrolment enrolment = CertificateEnrolment.of(chain, now);
        Instant later = now.plus(Duration.ofDays(31)); // the key's 30-day certificate has expired
        assertThrows(IllegalArgumentException.class, () -> DeviceCaTrust.of(chain, root.cert, later));

        DeviceCaTrust trust = DeviceCaTrust.resumed(chain, root.cert, enrolment);

        assertEquals(deviceCa.cert, trust.issuer());
        PqPublicKey next = sensorKey();
        assertEquals(Optional.empty(), refusal(trust, certify(deviceCa, next), next));
    }

    @Test
    void resumed_enrolmentOfAnotherFirstChainForTheSameKey_refused() {
        PqPublicKey first = sensorKey();
        CertificateEnrolment enrolment = CertificateEnrolment.of(certify(deviceCa, first), now);
        List<PqCertificate> reissued = certify(deviceCa, first); // another serial number: other bytes

        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> DeviceCaTrust.resumed(reissued, root.cert, enrolment));

        assertTrue(e.getMessage().contains("another first chain"), e.getMessage());
    }

    @Test
    void resumed_underAnotherRoot_refused() throws IOException {
        List<PqCertificate> chain = certify(deviceCa, sensorKey());
        CertificateEnrolment enrolment = CertificateEnrolment.of(chain, now);
        Ca otherRoot = new Ca("other-root");
        otherRoot.cert = Certificates.selfSigned(otherRoot.signer, "CN=Plant Root,O=Test", 3650);

        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> DeviceCaTrust.resumed(chain, otherRoot.cert, enrolment));

        assertTrue(e.getMessage().contains("not valid under the root"), e.getMessage());
    }
}
