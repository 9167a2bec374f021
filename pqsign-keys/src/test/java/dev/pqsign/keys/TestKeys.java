package dev.pqsign.keys;

import dev.pqsign.state.FileStateStore;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.nio.file.Path;

/** Real XMSS^MT keys on real state files for the keys module's tests. */
final class TestKeys {
    static final XmssParameterSet SET = XmssParameterSet.XMSSMT_SHA2_10_2_256;

    /** An open signer with its store; closing it closes both. */
    record OpenKey(PqPublicKey publicKey, XmssStatefulSigner signer, FileStateStore store) implements AutoCloseable {
        @Override
        public void close() {
            signer.close();
            store.close();
        }
    }

    private TestKeys() {}

    static OpenKey open(Path stateFile) throws IOException {
        XmssPrivateKey key = XmssKeyGenerator.generate(SET);
        FileStateStore store =
                FileStateStore.create(stateFile, XmssKeyState.fresh(key).encode(), FileStateStore.DEFAULT_LOCK_TIMEOUT);
        key.destroy();
        XmssStatefulSigner signer = XmssStatefulSigner.open(store);
        return new OpenKey(PqPublicKey.of(signer.publicKey()), signer, store);
    }

    static PqPublicKey freshPublicKey() {
        XmssPrivateKey key = XmssKeyGenerator.generate(SET);
        PqPublicKey pub = PqPublicKey.of(key.publicKey());
        key.destroy();
        return pub;
    }
}
