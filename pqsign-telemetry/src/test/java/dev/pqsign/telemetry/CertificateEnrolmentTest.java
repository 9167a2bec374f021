package dev.pqsign.telemetry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.Digests;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.PublicKeys;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.x509.Certificates;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator's certificate enrolment record (docs/formats/certificate-enrolment.md): layout, refusals, files. */
class CertificateEnrolmentTest {
    @TempDir
    Path dir;

    private List<PqCertificate> chain;
    private List<PqCertificate> otherChain;
    private byte[] chainId;

    @BeforeEach
    void setUp() throws IOException {
        try (FileStateStore store = FileStateStore.open(dir.resolve("root.state"))) {
            XmssPrivateKey k = XmssKeyGenerator.generate(XmssParameterSet.XMSSMT_SHA2_40_8_256);
            XmssStatefulSigner.create(store, k);
            k.destroy();
            try (XmssStatefulSigner root = XmssStatefulSigner.open(store)) {
                PqCertificate rootCert = Certificates.selfSigned(root, "CN=Plant Root,O=Test", 3650);
                XmssPrivateKey s = XmssKeyGenerator.generate(XmssParameterSet.XMSSMT_SHA2_40_8_256);
                PqPublicKey sensorKey = PqPublicKey.of(s.publicKey());
                s.destroy();
                chain = List.of(Certificates.issue(root, rootCert, sensorKey, "CN=sensor,O=Test", 30, false));
                otherChain = List.of(Certificates.issue(root, rootCert, sensorKey, "CN=sensor,O=Test", 30, false));
                chainId = PublicKeys.keyId(sensorKey);
            }
        }
    }

    @Test
    void encode_layoutAsDocumented_decodesToTheSameRecord() {
        Instant t = Instant.parse("2026-12-02T03:04:05.678Z");

        byte[] b = CertificateEnrolment.of(chain, t).encode();

        assertEquals(CertificateEnrolment.LENGTH, b.length);
        assertArrayEquals(new byte[] {'P', 'Q', 'C', 'E', 1}, Arrays.copyOf(b, 5));
        assertArrayEquals(chainId, Arrays.copyOfRange(b, 5, 37));
        assertEquals(t.toEpochMilli(), ByteBuffer.wrap(b, 37, 8).getLong());
        assertArrayEquals(Digests.sha256().digest(chain.get(0).encoded()), Arrays.copyOfRange(b, 45, 77));
        assertArrayEquals(Digests.checkValue(b, 77, 16), Arrays.copyOfRange(b, 77, 93));
        CertificateEnrolment d = CertificateEnrolment.decode(b, chainId);
        assertEquals(t, d.validatedAt());
        assertTrue(d.isOf(chain));
        assertFalse(d.isOf(otherChain), "a re-issued certificate for the same key is another chain");
    }

    @Test
    void decode_anySingleFlippedBit_throws() {
        byte[] b = CertificateEnrolment.of(chain, Instant.now()).encode();
        for (int bit = 0; bit < b.length * 8; bit++) {
            byte[] c = b.clone();
            c[bit / 8] ^= (byte) (1 << (bit % 8));
            assertThrows(KeyFormatException.class, () -> CertificateEnrolment.decode(c, chainId), "bit " + bit);
        }
    }

    @Test
    void decode_recordOfAnotherSensor_throws() {
        byte[] b = CertificateEnrolment.of(chain, Instant.now()).encode();
        byte[] otherId = chainId.clone();
        otherId[0] ^= 1;

        KeyFormatException e = assertThrows(KeyFormatException.class, () -> CertificateEnrolment.decode(b, otherId));

        assertTrue(e.getMessage().contains("belongs to chain"), e.getMessage());
    }

    @Test
    void decode_wrongLengthOrVersion_throwsNamingIt() {
        byte[] b = CertificateEnrolment.of(chain, Instant.now()).encode();
        byte[] longer = Arrays.copyOf(b, b.length + 1);
        byte[] v2 = b.clone();
        v2[4] = 2;
        System.arraycopy(Digests.checkValue(v2, 77, 16), 0, v2, 77, 16);

        assertTrue(assertThrows(KeyFormatException.class, () -> CertificateEnrolment.decode(longer, chainId))
                .getMessage()
                .contains("94 bytes, expected 93"));
        assertTrue(assertThrows(KeyFormatException.class, () -> CertificateEnrolment.decode(v2, chainId))
                .getMessage()
                .contains("version 2"));
    }

    @Test
    void of_timeBefore1970_throws() {
        assertThrows(
                IllegalArgumentException.class,
                () -> CertificateEnrolment.of(chain, Instant.parse("1969-12-31T23:59:59Z")));
    }

    @Test
    void storeThenLoad_sameRecord_missingFileIsEmpty_corruptFileNamed() throws IOException {
        Path chains = dir.resolve("chains");
        assertEquals(Optional.empty(), CertificateEnrolment.load(chains, chainId));
        Instant t = Instant.parse("2026-12-02T03:04:05Z");

        Path file = CertificateEnrolment.of(chain, t).store(chains);

        assertEquals(CertificateEnrolment.file(chains, chainId), file);
        assertTrue(file.getFileName().toString().endsWith(".pqce"));
        assertEquals(t, CertificateEnrolment.load(chains, chainId).orElseThrow().validatedAt());
        Files.write(file, new byte[] {1, 2, 3});
        IOException e = assertThrows(IOException.class, () -> CertificateEnrolment.load(chains, chainId));
        assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
    }
}
