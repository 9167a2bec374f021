package dev.pqsign.opcua.internal;

import dev.pqsign.opcua.ApplicationIdentity;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.security.CertificateFactory;
import org.eclipse.milo.opcua.stack.core.security.CertificateStore;
import org.eclipse.milo.opcua.stack.core.security.RsaSha256CertificateFactory;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;

/**
 * Hands a Milo server the application identity persisted under its data directory, instead of the
 * new key pair and certificate Milo would generate on each start (clients that trust a server's
 * certificate must keep trusting it after a restart). Used by the sensor server and the gateway.
 */
public final class PersistedIdentity {

    private PersistedIdentity() {}

    /**
     * A certificate store that always holds {@code id}.
     *
     * @param id the persisted identity
     * @return the store for Milo's application group
     */
    public static CertificateStore store(ApplicationIdentity id) {
        return new FixedCertificateStore(id);
    }

    /**
     * A certificate factory that returns {@code id} instead of generating a key pair.
     *
     * @param id the persisted identity
     * @return the factory for Milo's application group
     */
    public static CertificateFactory factory(ApplicationIdentity id) {
        return new FixedCertificateFactory(id);
    }

    /** A certificate store that always holds this server's persisted identity. */
    private static final class FixedCertificateStore implements CertificateStore {
        private Entry entry;

        FixedCertificateStore(ApplicationIdentity id) {
            this.entry = new Entry(id.keyPair().getPrivate(), new X509Certificate[] {id.certificate()});
        }

        @Override
        public synchronized boolean contains(NodeId certificateTypeId) {
            return entry != null && NodeIds.RsaSha256ApplicationCertificateType.equals(certificateTypeId);
        }

        @Override
        public synchronized Entry get(NodeId certificateTypeId) {
            return contains(certificateTypeId) ? entry : null;
        }

        @Override
        public synchronized Entry remove(NodeId certificateTypeId) {
            Entry e = get(certificateTypeId);
            if (e != null) {
                entry = null;
            }
            return e;
        }

        @Override
        public synchronized void set(NodeId certificateTypeId, Entry entry) {
            this.entry = entry;
        }
    }

    /** Hands Milo the persisted identity instead of generating a new one on each start. */
    private static final class FixedCertificateFactory extends RsaSha256CertificateFactory {
        private final ApplicationIdentity id;

        FixedCertificateFactory(ApplicationIdentity id) {
            this.id = id;
        }

        @Override
        protected KeyPair createRsaSha256KeyPair() {
            return id.keyPair();
        }

        @Override
        protected X509Certificate[] createRsaSha256CertificateChain(KeyPair keyPair) {
            return new X509Certificate[] {id.certificate()};
        }
    }
}
