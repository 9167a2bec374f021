package dev.pqsign.cli;

import dev.pqsign.core.IndexedSigner;
import dev.pqsign.core.ParameterSet;
import dev.pqsign.core.Verifier;
import dev.pqsign.demo.DemoRunner;
import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaePrivateKey;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.keys.HaetaeKeyFile;
import dev.pqsign.keys.HaetaeScheme;
import dev.pqsign.keys.SignatureScheme;
import dev.pqsign.keys.XmssScheme;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.x509.CertificateChainVerifier;
import dev.pqsign.x509.Certificates;
import dev.pqsign.x509.ChainVerificationResult;
import dev.pqsign.x509.Pem;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.x509.PublicKeys;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssPublicKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import dev.pqsign.xmss.XmssVerifier;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo's keys and certificates, kept under the data directory between runs: a plant root CA
 * (XMSSMT-SHA2_20/4_256, self-signed) and one key per set and sensor. Keys of registered sets get a
 * sensor certificate from the root and the operator's verifier comes from that certificate after
 * the chain has been verified; the study's private-use sets have no RFC 9802 encoding, so their
 * operator pins the public key file instead. A key without enough signatures left for a run is
 * retired (its directory renamed, never reused) and replaced.
 */
final class DemoKeys implements Closeable {
    static final XmssParameterSet CA_SET = XmssParameterSet.XMSSMT_SHA2_20_4_256;

    private final Path dataDir;
    private final PrintWriter log;
    private final SensorSigningOptions signing;
    private final List<AutoCloseable> open = new ArrayList<>();
    private PqCertificate root;
    private Path caState;

    /**
     * @param signing how the XMSS sensors sign (batch, reserving ahead, SHA-256 mid-states)
     */
    DemoKeys(Path dataDir, PrintWriter log, SensorSigningOptions signing) {
        this.dataDir = dataDir;
        this.log = log;
        this.signing = signing;
    }

    /** The plant root certificate, created with its key on first use. */
    PqCertificate root() throws IOException {
        if (root != null) {
            return root;
        }
        Path caDir = dataDir.resolve("ca");
        caState = caDir.resolve("key.state");
        Path caPem = caDir.resolve("root.pem");
        if (!Files.exists(caState)) {
            Files.createDirectories(caDir);
            XmssPrivateKey key = XmssKeyGenerator.generate(CA_SET);
            FileStateStore.create(caState, XmssKeyState.fresh(key).encode(), FileStateStore.DEFAULT_LOCK_TIMEOUT)
                    .close();
            KeygenCommand.writePublic(caDir.resolve("key.pub"), key.publicKey().encoded());
            key.destroy();
        }
        if (!Files.exists(caPem)) {
            try (FileStateStore store = FileStateStore.open(caState);
                    XmssStatefulSigner ca = XmssStatefulSigner.open(store)) {
                PqCertificate cert = Certificates.selfSigned(ca, "CN=pqsign demo plant root CA", 3650);
                KeygenCommand.writePublic(caPem, Pem.write(cert).getBytes(StandardCharsets.US_ASCII));
            }
            log.println("demo: created plant root CA " + caPem);
        }
        root = PqCertificate.read(Files.readAllBytes(caPem));
        return root;
    }

    /** A scheme setup for {@code setName} whose keys can each make at least {@code needed} signatures. */
    DemoRunner.SchemeSetup setup(SignatureScheme set, long needed) {
        if (set instanceof XmssScheme x) {
            XmssParameterSet p = x.parameterSet();
            return new DemoRunner.SchemeSetup(
                    p.setName(), EmbeddedIndex.bigEndianPrefix(p.indexBytes()), i -> xmssKey(p, i, needed));
        }
        HaetaeParameterSet h = ((HaetaeScheme) set).parameterSet();
        return new DemoRunner.SchemeSetup(h.setName(), EmbeddedIndex.NONE, i -> haetaeKey(h, i));
    }

    private Path sensorDir(String setName, int i) {
        return dataDir.resolve("keys")
                .resolve(SignatureScheme.directoryName(setName))
                .resolve("sensor-" + i);
    }

    private DemoRunner.DemoKey xmssKey(XmssParameterSet p, int i, long needed) throws IOException {
        Path dir = sensorDir(p.setName(), i);
        Path state = dir.resolve("key.state");
        if (Files.exists(state)) {
            long remaining =
                    XmssKeyState.decode(DurableFiles.readAll(state, 4096)).remaining();
            if (remaining < needed) {
                Path retired = dir.resolveSibling(
                        dir.getFileName() + ".retired-" + Instant.now().toEpochMilli());
                Files.move(dir, retired);
                log.println("demo: " + p.setName() + " sensor " + i + " key has " + remaining
                        + " signatures left; retired it to " + retired + " and generating a new one");
            }
        }
        if (!Files.exists(state)) {
            Files.createDirectories(dir);
            long t0 = System.nanoTime();
            XmssPrivateKey key = XmssKeyGenerator.generate(p);
            FileStateStore.create(state, XmssKeyState.fresh(key).encode(), FileStateStore.DEFAULT_LOCK_TIMEOUT)
                    .close();
            KeygenCommand.writePublic(dir.resolve("key.pub"), key.publicKey().encoded());
            log.printf(
                    "demo: generated %s key for sensor %d in %.1f ms%n",
                    p.setName(), i, (System.nanoTime() - t0) / 1e6);
            key.destroy();
            if (!p.isPrivateUse()) {
                issue(PqPublicKey.of(XmssPublicKey.decode(p, Files.readAllBytes(dir.resolve("key.pub")))), dir, p, i);
            }
        }
        byte[] pub = Files.readAllBytes(dir.resolve("key.pub"));
        XmssStatefulSigner signer = XmssStatefulSigner.open(remember(FileStateStore.open(state)), signing.xmss());
        remember(signer);
        Verifier verifier;
        byte[] certDer = new byte[0];
        // The operator verifies a stream of each sensor's signatures: the XMSS^MT upper layers are
        // computed once per bottom tree (XmssVerifier.withUpperLayerCache).
        if (p.isPrivateUse()) {
            verifier = XmssVerifier.withUpperLayerCache(XmssPublicKey.decode(p, pub));
        } else {
            PqCertificate cert = trustedCertificate(dir);
            verifier = XmssVerifier.withUpperLayerCache(cert.publicKey()
                    .xmss()
                    .orElseThrow(() -> new IOException("certificate of " + dir + " does not hold an XMSS key")));
            certDer = cert.encoded();
        }
        return new DemoRunner.DemoKey(new SensorKey(signer, KeyId.ofPublicKey(pub), certDer), verifier);
    }

    private DemoRunner.DemoKey haetaeKey(HaetaeParameterSet h, int i) throws IOException {
        Path dir = sensorDir(h.setName(), i);
        Path sk = dir.resolve("key.sk");
        if (!Files.exists(sk)) {
            Files.createDirectories(dir);
            HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(h, new SecureRandom());
            DurableFiles.createAtomically(sk, HaetaeKeyFile.encode(kp.privateKey()));
            KeygenCommand.writePublic(dir.resolve("key.pub"), kp.publicKey().getEncoded());
            kp.privateKey().destroy();
            issue(PqPublicKey.of(kp.publicKey()), dir, h, i);
            log.println("demo: generated " + h.setName() + " key for sensor " + i);
        }
        HaetaePrivateKey key = HaetaeKeyFile.decode(DurableFiles.readAll(sk, 1 << 16));
        byte[] pub = Files.readAllBytes(dir.resolve("key.pub"));
        IndexedSigner signer =
                remember(SequencedSigner.openFile(new HaetaeSigner(key), dir.resolve("sequence.state"), signing.batch));
        PqCertificate cert = trustedCertificate(dir);
        return new DemoRunner.DemoKey(
                new SensorKey(signer, KeyId.ofPublicKey(pub), cert.encoded()), PublicKeys.verifierFor(cert));
    }

    /** The root issues the sensor's certificate (one index of the root key). */
    private void issue(PqPublicKey key, Path dir, ParameterSet set, int i) throws IOException {
        PqCertificate ca = root();
        try (FileStateStore store = FileStateStore.open(caState);
                XmssStatefulSigner signer = XmssStatefulSigner.open(store)) {
            PqCertificate cert =
                    Certificates.issue(signer, ca, key, "CN=demo sensor " + i + " (" + set + ")", 365, false);
            KeygenCommand.writePublic(dir.resolve("sensor.pem"), Pem.write(cert).getBytes(StandardCharsets.US_ASCII));
        }
    }

    /** The sensor certificate, accepted only if its chain to the plant root verifies now. */
    private PqCertificate trustedCertificate(Path dir) throws IOException {
        PqCertificate cert = PqCertificate.read(Files.readAllBytes(dir.resolve("sensor.pem")));
        ChainVerificationResult r = CertificateChainVerifier.verify(cert, root(), Instant.now());
        if (!r.isValid()) {
            throw new IOException("sensor certificate " + dir.resolve("sensor.pem") + " is not trusted: " + r.reason()
                    + ": " + r.message());
        }
        return cert;
    }

    private <T extends AutoCloseable> T remember(T c) {
        open.add(c);
        return c;
    }

    /** Closes signers (giving back unused reserved indices) and state stores, newest first. */
    @Override
    public void close() throws IOException {
        IOException first = null;
        for (int i = open.size() - 1; i >= 0; i--) {
            try {
                open.get(i).close();
            } catch (Exception e) {
                if (first == null) {
                    first = e instanceof IOException ? (IOException) e : new IOException(e.getMessage(), e);
                }
            }
        }
        open.clear();
        if (first != null) {
            throw first;
        }
    }
}
