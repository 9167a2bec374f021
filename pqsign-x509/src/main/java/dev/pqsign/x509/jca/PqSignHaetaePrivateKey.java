package dev.pqsign.x509.jca;

import dev.pqsign.core.Secrets;
import dev.pqsign.haetae.HaetaePrivateKey;
import dev.pqsign.x509.Oids;
import dev.pqsign.x509.PqPublicKey;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.security.PrivateKey;
import java.util.Objects;
import javax.security.auth.Destroyable;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;

/**
 * A JCA {@link PrivateKey} for HAETAE. {@link #getEncoded()} is PKCS#8 in BouncyCastle 1.87's form:
 * PrivateKeyInfo version 0, the set's OID with absent parameters, and a privateKey OCTET STRING
 * holding a DER OCTET STRING of the reference {@code sk}. Not serialisable (export PKCS#8 instead);
 * {@link #destroy()} wipes the key.
 */
public final class PqSignHaetaePrivateKey implements PrivateKey, Destroyable {
    private static final long serialVersionUID = 1L;

    private final transient HaetaePrivateKey key;

    /**
     * Wraps a HAETAE private key (not copied: {@link #destroy()} wipes it).
     *
     * @param key the pqsign private key
     */
    public PqSignHaetaePrivateKey(HaetaePrivateKey key) {
        this.key = Objects.requireNonNull(key, "key");
    }

    /**
     * The pqsign key inside (live until {@link #destroy()}).
     *
     * @return the wrapped private key, not a copy
     */
    public HaetaePrivateKey haetaePrivateKey() {
        return key;
    }

    /**
     * The matching public key.
     *
     * @return a new JCA public key
     */
    public PqSignPublicKey publicKey() {
        return new PqSignPublicKey(PqPublicKey.of(key.publicKey()));
    }

    @Override
    public String getAlgorithm() {
        return key.parameterSet().setName();
    }

    @Override
    public String getFormat() {
        return "PKCS#8";
    }

    /** PKCS#8 DER, a fresh array the caller should wipe. */
    @Override
    public byte[] getEncoded() {
        byte[] sk = key.getEncoded();
        try {
            PrivateKeyInfo info =
                    new PrivateKeyInfo(new AlgorithmIdentifier(Oids.of(key.parameterSet())), new DEROctetString(sk));
            return info.getEncoded(ASN1Encoding.DER);
        } catch (IOException e) {
            throw new IllegalStateException("PKCS#8 encoding failed", e);
        } finally {
            Secrets.wipe(sk);
        }
    }

    @Override
    public void destroy() {
        key.destroy();
    }

    @Override
    public boolean isDestroyed() {
        return key.isDestroyed();
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        throw new NotSerializableException(
                "HAETAE private keys are not Java-serialisable; store getEncoded() (PKCS#8)");
    }

    /** Names the set only. */
    @Override
    public String toString() {
        return "PqSignHaetaePrivateKey[" + key.parameterSet().setName() + (isDestroyed() ? ", destroyed" : "") + "]";
    }
}
