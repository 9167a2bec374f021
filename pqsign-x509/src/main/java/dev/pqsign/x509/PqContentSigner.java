package dev.pqsign.x509;

import dev.pqsign.core.Signer;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.operator.ContentSigner;

/**
 * Adapts a pqsign {@link Signer} to BouncyCastle's {@link ContentSigner}, so BouncyCastle's builders
 * (certificates, CRLs, CSRs) can be signed by XMSS / XMSS^MT (one durable index per signature) or
 * HAETAE. The algorithm identifier has absent parameters. Single use: one {@link #getSignature()}
 * per instance, because each XMSS signature burns an index.
 */
public final class PqContentSigner implements ContentSigner {
    private final Signer signer;
    private final AlgorithmIdentifier algorithm;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private boolean used;

    /**
     * Wraps {@code signer}; its parameter set fixes the algorithm identifier.
     *
     * @param signer an XMSS / XMSS^MT or HAETAE signer
     * @throws UnsupportedAlgorithmException for private-use XMSS sets or unsupported signers
     */
    public PqContentSigner(Signer signer) {
        this.signer = Objects.requireNonNull(signer, "signer");
        this.algorithm = Oids.algorithmIdentifier(X509Signatures.algorithmFor(signer.parameterSet()));
    }

    @Override
    public AlgorithmIdentifier getAlgorithmIdentifier() {
        return algorithm;
    }

    @Override
    public OutputStream getOutputStream() {
        return buffer;
    }

    /** Signs everything written so far. */
    @Override
    public byte[] getSignature() {
        if (used) {
            throw new IllegalStateException("PqContentSigner is single-use; create a new one per signature");
        }
        used = true;
        return X509Signatures.sign(signer, buffer.toByteArray());
    }
}
