package dev.pqsign.x509.jca;

import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssStatefulSigner;
import dev.pqsign.x509.PqPublicKey;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.security.PrivateKey;
import java.util.Objects;

/**
 * The only way to sign with HSS / LMS through the JCA: a {@link PrivateKey} bound to an open
 * {@link HssStatefulSigner}, and so to the durable state store that guarantees no index is ever
 * used twice. Every {@code Signature.sign()} with it reserves the next index on disk first.
 *
 * <p>It has no encoding: {@link #getEncoded()} and {@link #getFormat()} return {@code null}, and it
 * cannot be serialised, because NIST SP 800-208 forbids exporting stateful hash-based private keys
 * (a copy would sign with indices the original also uses). The caller owns the signer and closes it.
 */
public final class HssStatefulPrivateKey implements PrivateKey {
    private static final long serialVersionUID = 1L;

    private final transient HssStatefulSigner signer;

    /**
     * Binds a JCA key to an open signer (and so to its state store).
     *
     * @param signer the open signer; the caller keeps and closes it
     */
    public HssStatefulPrivateKey(HssStatefulSigner signer) {
        this.signer = Objects.requireNonNull(signer, "signer");
    }

    /**
     * The signer this key signs through.
     *
     * @return the signer
     */
    public HssStatefulSigner signer() {
        return signer;
    }

    /**
     * The matching public key.
     *
     * @return a new JCA public key
     */
    public PqSignPublicKey publicKey() {
        return new PqSignPublicKey(PqPublicKey.of(signer.publicKey()));
    }

    /**
     * The key's HSS / LMS parameter set.
     *
     * @return the parameter set
     */
    public HssParameterSet parameterSet() {
        return signer.parameterSet();
    }

    /** {@code HSS/LMS}, the JDK's name. */
    @Override
    public String getAlgorithm() {
        return Algorithms.HSS_LMS;
    }

    /** Always {@code null}: there is no export format (SP 800-208). */
    @Override
    public String getFormat() {
        return null;
    }

    /** Always {@code null}: stateful private keys are never exported (SP 800-208). */
    @Override
    public byte[] getEncoded() {
        return null;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        throw new NotSerializableException("HSS private keys cannot be exported or serialised (NIST SP 800-208)");
    }

    @Override
    public String toString() {
        return "HssStatefulPrivateKey[" + signer + "]";
    }
}
