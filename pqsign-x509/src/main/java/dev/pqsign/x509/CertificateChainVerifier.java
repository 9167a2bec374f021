package dev.pqsign.x509;

import dev.pqsign.x509.ChainVerificationResult.Reason;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.Extensions;

/**
 * Verifies a certificate chain from a trusted root down to a leaf (e.g. root CA → sensor).
 *
 * <p>Rules, checked for each certificate from the root downwards, stopping at the first failure:
 * <ol>
 * <li>X.509 v3; signatureAlgorithm equals tbsCertificate.signature, with absent parameters.</li>
 * <li>The issuer's public key is XMSS / XMSS^MT (registered type code) or HAETAE, and the signature
 * algorithm is the one of that key; otherwise {@link Reason#UNKNOWN_ALGORITHM} or
 * {@link Reason#ALGORITHM_MISMATCH}.</li>
 * <li>issuer name = issuer's subject name, and if both key identifiers are present they are equal.</li>
 * <li>The signature verifies over the DER tbsCertificate. The trusted root must be self-signed
 * (issuer = subject, verifying under its own key), else {@link Reason#ROOT_NOT_SELF_SIGNED}.</li>
 * <li>notBefore ≤ now ≤ notAfter (inclusive, RFC 5280).</li>
 * <li>Every issuer is a CA (basic constraints cA = TRUE), with keyCertSign if it has key usage,
 * and its pathLenConstraint is respected.</li>
 * <li>Key usage, where present, holds only digitalSignature, nonRepudiation, keyCertSign, cRLSign
 * (RFC 9802 section 4; pqsign applies it to HAETAE too); keyCertSign only in CA certificates; the
 * leaf must allow digitalSignature or nonRepudiation. An absent key usage extension does not
 * restrict (RFC 5280), which is how RFC 9802's own example certificates are made.</li>
 * <li>Critical extensions other than basic constraints and key usage fail the chain (RFC 5280
 * requires rejecting critical extensions one does not process).</li>
 * <li>The leaf's public key is one pqsign can use (it will verify data with it).</li>
 * </ol>
 * Revocation is not checked (no CRLs in this deployment). Invalid chains give a result with a
 * reason; nothing here throws for attacker-controlled certificate contents.
 */
public final class CertificateChainVerifier {
    /** Critical extensions whose semantics pqsign enforces. */
    static final Set<ASN1ObjectIdentifier> UNDERSTOOD_CRITICAL = Set.of(Extension.basicConstraints, Extension.keyUsage);

    private CertificateChainVerifier() {}

    /**
     * Verifies {@code leaf} issued directly by {@code trustedRoot} (or {@code leaf} = the root itself).
     *
     * @param leaf the certificate whose key will be used
     * @param trustedRoot the trust anchor, obtained out of band
     * @param now the time to check validity periods at
     * @return valid, or the first reason the chain was rejected
     */
    public static ChainVerificationResult verify(PqCertificate leaf, PqCertificate trustedRoot, Instant now) {
        return verify(List.of(leaf), trustedRoot, now);
    }

    /**
     * Verifies a chain.
     *
     * @param chain leaf first, then intermediates, without the root (a chain of just the root's own
     *        certificate is allowed and checks the root alone)
     * @param trustedRoot the trust anchor, obtained out of band
     * @param now the time to check validity periods at
     * @return valid, or the first reason the chain was rejected
     * @throws IllegalArgumentException if {@code chain} is empty
     */
    public static ChainVerificationResult verify(List<PqCertificate> chain, PqCertificate trustedRoot, Instant now) {
        Objects.requireNonNull(trustedRoot, "trustedRoot");
        Objects.requireNonNull(now, "now");
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("chain must contain at least the leaf certificate");
        }
        List<PqCertificate> path = new ArrayList<>();
        path.add(trustedRoot);
        for (int i = chain.size() - 1; i >= 0; i--) {
            PqCertificate c = Objects.requireNonNull(chain.get(i), "chain element");
            if (i == chain.size() - 1 && c.equals(trustedRoot)) {
                continue;
            }
            path.add(c);
        }
        try {
            return check(path, now);
        } catch (RuntimeException e) {
            // Parsing of extensions is lazy in BouncyCastle; a malformed one surfaces here.
            return ChainVerificationResult.invalid(
                    Reason.MALFORMED_CERTIFICATE,
                    path.get(path.size() - 1),
                    "unreadable content in the chain: " + e.getMessage());
        }
    }

    private static ChainVerificationResult check(List<PqCertificate> path, Instant now) {
        PqCertificate root = path.get(0);
        ChainVerificationResult r = checkStructure(root);
        if (r != null) {
            return r;
        }
        // pqsign's trust anchors are self-signed roots; checking the self-signature also catches an
        // anchor file that was altered or corrupted after it was distributed.
        if (!root.isSelfIssued()) {
            return ChainVerificationResult.invalid(
                    Reason.ROOT_NOT_SELF_SIGNED,
                    root,
                    "trusted root's issuer '" + root.issuer()
                            + "' is not its subject; pqsign trusts only self-signed roots");
        }
        r = checkSignature(root, root);
        if (r != null) {
            return r;
        }
        r = checkValidity(root, now);
        if (r != null) {
            return r;
        }
        boolean rootIsLeaf = path.size() == 1;
        r = checkKeyUsage(root, rootIsLeaf);
        if (r == null && rootIsLeaf) {
            r = checkLeafKey(root);
        }
        if (r != null) {
            return r;
        }
        for (int i = 1; i < path.size(); i++) {
            PqCertificate issuer = path.get(i - 1);
            PqCertificate cert = path.get(i);
            boolean leaf = i == path.size() - 1;
            r = checkStructure(cert);
            if (r == null) {
                r = checkIssuer(cert, issuer);
            }
            if (r == null) {
                r = checkSignature(cert, issuer);
            }
            if (r == null) {
                r = checkValidity(cert, now);
            }
            if (r == null) {
                r = checkCa(issuer, path, i);
            }
            if (r == null) {
                r = checkKeyUsage(cert, leaf);
            }
            if (r == null && leaf) {
                r = checkLeafKey(cert);
            }
            if (r != null) {
                return r;
            }
        }
        return ChainVerificationResult.valid();
    }

    private static ChainVerificationResult checkStructure(PqCertificate c) {
        if (c.holder().getVersionNumber() != 3) {
            return ChainVerificationResult.invalid(
                    Reason.UNSUPPORTED_VERSION, c, "X.509 version " + c.holder().getVersionNumber() + ", expected 3");
        }
        AlgorithmIdentifier outer = c.holder().getSignatureAlgorithm();
        AlgorithmIdentifier inner =
                c.holder().toASN1Structure().getTBSCertificate().getSignature();
        if (!outer.equals(inner)) {
            return ChainVerificationResult.invalid(
                    Reason.ALGORITHM_MISMATCH,
                    c,
                    "signatureAlgorithm "
                            + Oids.describe(outer.getAlgorithm()) + " differs from tbsCertificate.signature "
                            + Oids.describe(inner.getAlgorithm()));
        }
        Extensions ext = c.extensions();
        if (ext != null) {
            for (ASN1ObjectIdentifier oid : ext.getCriticalExtensionOIDs()) {
                if (!UNDERSTOOD_CRITICAL.contains(oid)) {
                    return ChainVerificationResult.invalid(
                            Reason.UNKNOWN_CRITICAL_EXTENSION,
                            c,
                            "critical extension " + oid.getId() + " is not understood");
                }
            }
        }
        return null;
    }

    private static ChainVerificationResult checkIssuer(PqCertificate cert, PqCertificate issuer) {
        if (!cert.holder().getIssuer().equals(issuer.holder().getSubject())) {
            return ChainVerificationResult.invalid(
                    Reason.ISSUER_MISMATCH,
                    cert,
                    "issuer '" + cert.issuer() + "' is not the subject of the issuing certificate '" + issuer.subject()
                            + "'");
        }
        Optional<byte[]> aki = cert.authorityKeyIdentifier();
        Optional<byte[]> ski = issuer.subjectKeyIdentifier();
        if (aki.isPresent() && ski.isPresent() && !Arrays.equals(aki.get(), ski.get())) {
            return ChainVerificationResult.invalid(
                    Reason.ISSUER_MISMATCH,
                    cert,
                    "authority key identifier does not match the issuer's subject key identifier");
        }
        return null;
    }

    private static ChainVerificationResult checkSignature(PqCertificate cert, PqCertificate issuer) {
        AlgorithmIdentifier alg = cert.holder().getSignatureAlgorithm();
        ASN1ObjectIdentifier sigOid = alg.getAlgorithm();
        if (Oids.xmssFamily(sigOid) == null && Oids.haetaeSet(sigOid) == null && !Oids.isHss(sigOid)) {
            return ChainVerificationResult.invalid(
                    Reason.UNKNOWN_ALGORITHM,
                    cert,
                    "signature algorithm " + sigOid.getId()
                            + " is not supported (pqsign verifies XMSS, XMSS^MT, HSS / LMS and HAETAE signatures)");
        }
        if (alg.getParameters() != null) {
            return ChainVerificationResult.invalid(
                    Reason.ALGORITHM_MISMATCH,
                    cert,
                    "signature algorithm " + Oids.describe(sigOid) + " has parameters; RFC 9802 requires them absent");
        }
        PqPublicKey key;
        try {
            key = issuer.publicKey();
        } catch (UnsupportedAlgorithmException e) {
            return ChainVerificationResult.invalid(Reason.UNKNOWN_ALGORITHM, issuer, e.getMessage());
        } catch (CertificateFormatException e) {
            return ChainVerificationResult.invalid(Reason.MALFORMED_KEY, issuer, e.getMessage());
        }
        if (!key.algorithmOid().equals(sigOid)) {
            return ChainVerificationResult.invalid(
                    Reason.ALGORITHM_MISMATCH,
                    cert,
                    "signed with " + Oids.describe(sigOid) + " but the issuer's key is "
                            + key.parameterSet().setName());
        }
        if (!X509Signatures.verify(key, cert.tbsCertificate(), cert.signature())) {
            return ChainVerificationResult.invalid(
                    Reason.BAD_SIGNATURE,
                    cert,
                    "signature does not verify under the " + key.parameterSet().setName() + " key of '"
                            + issuer.subject() + "'");
        }
        return null;
    }

    private static ChainVerificationResult checkValidity(PqCertificate c, Instant now) {
        if (now.isBefore(c.notBefore())) {
            return ChainVerificationResult.invalid(
                    Reason.NOT_YET_VALID, c, "not valid before " + c.notBefore() + " (now " + now + ")");
        }
        if (now.isAfter(c.notAfter())) {
            return ChainVerificationResult.invalid(
                    Reason.EXPIRED, c, "expired at " + c.notAfter() + " (now " + now + ")");
        }
        return null;
    }

    private static ChainVerificationResult checkCa(PqCertificate issuer, List<PqCertificate> path, int childIndex) {
        if (!issuer.isCa()) {
            return ChainVerificationResult.invalid(
                    Reason.NOT_A_CA, issuer, "issues certificates but is not a CA (basic constraints cA is not TRUE)");
        }
        if (issuer.keyUsage().map(k -> !k.contains(KeyUsageBit.KEY_CERT_SIGN)).orElse(false)) {
            return ChainVerificationResult.invalid(
                    Reason.KEY_USAGE, issuer, "issues certificates but its key usage lacks keyCertSign");
        }
        Optional<Integer> pathLen = issuer.pathLengthConstraint();
        if (pathLen.isPresent()) {
            // Intermediate CA certificates below this issuer, not counting the leaf or self-issued ones.
            int below = 0;
            for (int j = childIndex; j < path.size() - 1; j++) {
                if (!path.get(j).isSelfIssued()) {
                    below++;
                }
            }
            if (below > pathLen.get()) {
                return ChainVerificationResult.invalid(
                        Reason.PATH_LENGTH,
                        issuer,
                        "path length constraint " + pathLen.get() + " exceeded: " + below
                                + " intermediate CA certificate(s) follow");
            }
        }
        return null;
    }

    private static ChainVerificationResult checkLeafKey(PqCertificate c) {
        try {
            c.publicKey();
            return null;
        } catch (UnsupportedAlgorithmException e) {
            return ChainVerificationResult.invalid(Reason.UNKNOWN_ALGORITHM, c, e.getMessage());
        } catch (CertificateFormatException e) {
            return ChainVerificationResult.invalid(Reason.MALFORMED_KEY, c, e.getMessage());
        }
    }

    private static ChainVerificationResult checkKeyUsage(PqCertificate c, boolean leaf) {
        Optional<Set<KeyUsageBit>> ku = c.keyUsage();
        if (ku.isEmpty()) {
            return null;
        }
        Set<KeyUsageBit> bits = ku.get();
        for (KeyUsageBit b : bits) {
            if (!b.isSigningUsage()) {
                return ChainVerificationResult.invalid(
                        Reason.KEY_USAGE,
                        c,
                        "key usage " + b + " is not allowed for a signature key (RFC 9802 section 4)");
            }
        }
        if (!c.isCa() && bits.contains(KeyUsageBit.KEY_CERT_SIGN)) {
            return ChainVerificationResult.invalid(
                    Reason.KEY_USAGE, c, "keyCertSign in a certificate that is not a CA");
        }
        if (leaf
                && !bits.contains(KeyUsageBit.DIGITAL_SIGNATURE)
                && !bits.contains(KeyUsageBit.NON_REPUDIATION)
                && !c.isCa()) {
            return ChainVerificationResult.invalid(
                    Reason.KEY_USAGE, c, "key usage " + bits + " allows neither digitalSignature nor nonRepudiation");
        }
        return null;
    }
}
