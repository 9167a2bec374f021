package dev.pqsign.fuzz;

import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaeSampler;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.x509.CertificateTemplate;
import dev.pqsign.x509.Certificates;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The certificates of the certificate target, issued deterministically from {@link FuzzKeys}: an
 * XMSS^MT root CA, a HAETAE-3 intermediate CA it issued, a HAETAE-2 sensor the intermediate issued,
 * and an XMSS sensor the root issued directly. Fixed validity periods; the XMSS signatures use
 * indices 0, 1, 2 of the root key in that order and HAETAE signs with {@link DeterministicRandom}.
 */
final class FuzzCertificates {
    static final Instant NOT_BEFORE = Instant.parse("2026-01-01T00:00:00Z");
    static final Instant ROOT_NOT_AFTER = Instant.parse("2046-01-01T00:00:00Z");
    static final Instant CA_NOT_AFTER = Instant.parse("2040-01-01T00:00:00Z");
    static final Instant LEAF_NOT_AFTER = Instant.parse("2036-01-01T00:00:00Z");

    /** File names of {@link #issue()}'s certificates, in its order. */
    static final String[] NAMES = {"root", "line-ca", "sensor-h", "sensor-x"};

    private static List<PqCertificate> committed;

    private FuzzCertificates() {}

    static String file(int i) {
        return "cert-" + NAMES[i] + ".der";
    }

    /**
     * The committed certificates (what {@link #issue()} gives, checked by {@link SeedCorpusTest}):
     * root, intermediate CA, HAETAE sensor, XMSS sensor.
     */
    static synchronized List<PqCertificate> committed() {
        if (committed == null) {
            List<PqCertificate> l = new ArrayList<>();
            for (int i = 0; i < NAMES.length; i++) {
                l.add(PqCertificate.fromDer(FuzzKeys.resource(SeedCorpus.material(file(i)))));
            }
            committed = List.copyOf(l);
        }
        return committed;
    }

    static PqCertificate root() {
        return committed().get(0);
    }

    /** Issues root, intermediate CA, HAETAE sensor (issued by the intermediate), XMSS sensor (issued by the root). */
    static List<PqCertificate> issue() throws IOException {
        XmssParameterSet rootSet = XmssParameterSet.XMSSMT_SHA2_20_2_256;
        Path tmp = Files.createTempDirectory("pqsign-fuzz-ca");
        try (FileStateStore store = FileStateStore.open(tmp.resolve("root.state"))) {
            XmssStatefulSigner.create(store, FuzzKeys.xmss(rootSet));
            try (XmssStatefulSigner rootSigner = XmssStatefulSigner.open(store)) {
                PqCertificate root = Certificates.selfSigned(
                        rootSigner,
                        PqPublicKey.of(rootSigner.publicKey()),
                        CertificateTemplate.of("CN=pqsign fuzz root,O=pqsign", NOT_BEFORE, ROOT_NOT_AFTER)
                                .ca(true)
                                .pathLength(1)
                                .serial(BigInteger.ONE));
                PqPublicKey caKey = PqPublicKey.of(
                        FuzzKeys.haetae(HaetaeParameterSet.HAETAE_3).publicKey());
                PqCertificate ca = Certificates.issue(
                        rootSigner,
                        root,
                        caKey,
                        CertificateTemplate.of("CN=pqsign fuzz line CA,O=pqsign", NOT_BEFORE, CA_NOT_AFTER)
                                .ca(true)
                                .pathLength(0)
                                .serial(BigInteger.TWO));
                PqPublicKey xmssSensorKey = PqPublicKey.of(
                        FuzzKeys.xmss(XmssParameterSet.XMSS_SHA2_10_256).publicKey());
                PqCertificate xmssSensor = Certificates.issue(
                        rootSigner,
                        root,
                        xmssSensorKey,
                        CertificateTemplate.of("CN=sensor-x,O=pqsign", NOT_BEFORE, LEAF_NOT_AFTER)
                                .serial(BigInteger.valueOf(3)));
                HaetaeSigner caSigner = new HaetaeSigner(
                        FuzzKeys.haetae(HaetaeParameterSet.HAETAE_3).privateKey(),
                        new byte[0],
                        HaetaeSampler.V1_1_2,
                        HaetaeEngine.FAST,
                        new DeterministicRandom("ca signing"));
                PqPublicKey sensorKey = PqPublicKey.of(
                        FuzzKeys.haetae(HaetaeParameterSet.HAETAE_2).publicKey());
                PqCertificate sensor = Certificates.issue(
                        caSigner,
                        ca,
                        sensorKey,
                        CertificateTemplate.of("CN=sensor-h,O=pqsign", NOT_BEFORE, LEAF_NOT_AFTER)
                                .serial(BigInteger.valueOf(4)));
                return List.of(root, ca, sensor, xmssSensor);
            }
        } finally {
            SeedCorpus.deleteTree(tmp);
        }
    }
}
