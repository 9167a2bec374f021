package dev.pqsign.opcua;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.Verdict.Reason;
import dev.pqsign.telemetry.operator.Observation;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.ReplayGuard;
import dev.pqsign.x509.CertificateTemplate;
import dev.pqsign.x509.Certificates;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sensor publishes its (RFC 9802-style) certificate on the certificate node; an operator that
 * pinned the same certificate out of band accepts the sensor's HAETAE-signed readings.
 */
class CertificatePinningTest {

    @TempDir
    Path dir;

    @Test
    void operatorPinnedFromCertificate_acceptsReadings_andCertificateNodeCarriesTheDer() throws Exception {
        HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_2, new SecureRandom());
        PqCertificate cert = Certificates.selfSigned(
                new HaetaeSigner(kp.privateKey()),
                PqPublicKey.of(kp.publicKey()),
                CertificateTemplate.valid("CN=pqsign sensor pi-1", Duration.ofDays(30), Clock.systemUTC()));
        byte[] der = cert.encoded();
        BlockingQueue<Observation> obs = new LinkedBlockingQueue<>();
        try (SequencedSigner signer =
                        SequencedSigner.openFile(new HaetaeSigner(kp.privateKey()), dir.resolve("seq"), 1);
                SensorServer sensor = SensorServer.start(
                        SensorServer.Config.loopback("pi-1", dir.resolve("sensor"), TransportSecurity.NONE),
                        new SensorKey(signer, KeyId.ofPublicKey(kp.publicKey().getEncoded()), der));
                ReplayGuard guard = ReplayGuard.inDirectory(dir.resolve("replay"))) {
            // the operator knows only the certificate file
            PqCertificate pinned = PqCertificate.fromDer(der);
            ReadingVerifier verifier = new ReadingVerifier(
                    guard,
                    ReadingVerifier.TrustedKey.forPublicKey(
                            pinned.publicKey().rawEncoding(), pinned.publicKey().verifier(), EmbeddedIndex.NONE));
            try (Operator op = new Operator(
                    new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2), verifier, obs::add)) {
                op.connect("pi-1", sensor.endpointUrl());
                for (int i = 0; i < 5; i++) {
                    SensorServer.Publication p = sensor.publish("1500.0" + i + ",2026-11-30T00:00:00.000000000Z");
                    Observation o;
                    do {
                        o = obs.poll(20, TimeUnit.SECONDS);
                        assertNotNull(o);
                    } while (o.sequence() < p.sequence());
                    assertEquals(
                            Reason.ACCEPTED, o.verdict().reason(), o.verdict().detail());
                }
            }
            OpcUaClient raw = OpcUaClient.create(sensor.endpointUrl());
            raw.connect();
            try {
                ByteString node = (ByteString)
                        raw.readValue(0.0, TimestampsToReturn.Neither, sensor.nodeId(SensorNodes.CERTIFICATE))
                                .value()
                                .value();
                assertArrayEquals(der, node.bytes());
            } finally {
                raw.disconnect();
            }
        }
    }
}
