package dev.pqsign.demo;

import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.haetae.HaetaeVerifier;
import dev.pqsign.keys.SignatureScheme;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import dev.pqsign.xmss.XmssVerifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

/** Demo setups with the project's real XMSS^MT and HAETAE implementations (test scope only). */
final class RealSchemes {

    private RealSchemes() {}

    /** Fresh XMSS^MT keys, one per sensor, state in a {@link FileStateStore}, {@code batch} indices per write. */
    static DemoRunner.SchemeSetup xmssMt(XmssParameterSet p, Path keyDir, int batch) {
        return new DemoRunner.SchemeSetup(p.setName(), EmbeddedIndex.bigEndianPrefix(p.indexBytes()), i -> {
            Files.createDirectories(keyDir);
            XmssPrivateKey key = XmssKeyGenerator.generate(p);
            Path state = keyDir.resolve(
                    SignatureScheme.directoryName(p.setName()) + "-" + i + "-" + System.nanoTime() + ".state");
            FileStateStore.create(state, XmssKeyState.fresh(key).encode(), FileStateStore.DEFAULT_LOCK_TIMEOUT)
                    .close();
            XmssVerifier verifier = new XmssVerifier(key.publicKey());
            byte[] pub = key.publicKey().encoded();
            key.destroy();
            XmssStatefulSigner signer = XmssStatefulSigner.open(
                    FileStateStore.open(state),
                    Options.defaults().withBatch(batch).withThreads(1));
            return new DemoRunner.DemoKey(new SensorKey(signer, KeyId.ofPublicKey(pub)), verifier);
        });
    }

    /** Fresh HAETAE keys, one per sensor, indices from a {@link SequencedSigner} counter file. */
    static DemoRunner.SchemeSetup haetae(HaetaeParameterSet p, Path keyDir, int block) {
        return new DemoRunner.SchemeSetup(p.setName(), EmbeddedIndex.NONE, i -> {
            Files.createDirectories(keyDir);
            HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(p, new SecureRandom());
            SequencedSigner signer = SequencedSigner.openFile(
                    new HaetaeSigner(kp.privateKey()),
                    keyDir.resolve(p.setName() + "-" + i + "-" + System.nanoTime() + ".seq"),
                    block);
            return new DemoRunner.DemoKey(
                    new SensorKey(signer, KeyId.ofPublicKey(kp.publicKey().getEncoded())),
                    new HaetaeVerifier(kp.publicKey()));
        });
    }
}
