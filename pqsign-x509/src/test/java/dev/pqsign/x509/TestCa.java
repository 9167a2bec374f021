package dev.pqsign.x509;

import dev.pqsign.state.FileStateStore;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.nio.file.Path;

/** A fresh XMSS / XMSS^MT key whose state lives in a {@link FileStateStore} under a test directory. */
final class TestCa implements AutoCloseable {
    final FileStateStore store;
    final XmssStatefulSigner signer;

    private TestCa(FileStateStore store, XmssStatefulSigner signer) {
        this.store = store;
        this.signer = signer;
    }

    static TestCa create(Path dir, String name, XmssParameterSet set) throws IOException {
        XmssPrivateKey key = XmssKeyGenerator.generate(set);
        FileStateStore store = FileStateStore.open(dir.resolve(name + ".state"));
        XmssStatefulSigner.create(store, key);
        key.destroy();
        return new TestCa(store, XmssStatefulSigner.open(store));
    }

    PqPublicKey publicKey() {
        return PqPublicKey.of(signer.publicKey());
    }

    @Override
    public void close() {
        signer.close();
        store.close();
    }
}
