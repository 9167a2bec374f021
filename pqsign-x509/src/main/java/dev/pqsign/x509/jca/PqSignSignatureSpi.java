package dev.pqsign.x509.jca;

import dev.pqsign.core.PqSignException;
import dev.pqsign.core.Verifier;
import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaeSampler;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.lms.HssStatefulSigner;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.ByteArrayOutputStream;
import java.security.InvalidKeyException;
import java.security.InvalidParameterException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.SignatureException;
import java.security.SignatureSpi;
import java.util.Arrays;

/**
 * Signature for XMSS / XMSS^MT, HSS / LMS and HAETAE-2/3/5. The whole message is buffered and signed as is (no
 * pre-hash), as RFC 9802 and HAETAE define.
 *
 * <ul>
 * <li>XMSS / XMSS^MT verify with any public key of the family (ours, or any X.509-encodable one such
 * as BouncyCastle's). Signing needs an {@link XmssStatefulPrivateKey}; each {@code sign()} reserves
 * an index durably before the signature exists.</li>
 * <li>HSS / LMS ("HSS/LMS", the JDK's name) likewise: verify with any HSS public key, sign with an
 * {@link HssStatefulPrivateKey}.</li>
 * <li>HAETAE signs and verifies with the reference context API and the empty context, exactly like
 * {@link HaetaeSigner} / {@link dev.pqsign.haetae.HaetaeVerifier} with defaults (mu = SHAKE256(vk ||
 * 0x00 || M)). BouncyCastle 1.87's JCA HAETAE leaves out the 0x00 length byte, so signatures made
 * through the two JCA providers do not verify across them; in certificates pqsign uses BouncyCastle's
 * form (see {@link dev.pqsign.x509.X509Signatures}).</li>
 * </ul>
 */
public class PqSignSignatureSpi extends SignatureSpi {
    private static final byte[] EMPTY = new byte[0];

    private final Algorithms alg;
    private final ByteArrayOutputStream message = new ByteArrayOutputStream();
    private Verifier verifier;
    private XmssStatefulSigner xmssSigner;
    private HssStatefulSigner hssSigner;
    private HaetaeSigner haetaeSigner;

    PqSignSignatureSpi(Algorithms alg) {
        this.alg = alg;
    }

    @Override
    protected void engineInitVerify(PublicKey publicKey) throws InvalidKeyException {
        PqSignPublicKey k = alg.translatePublic(publicKey);
        reset();
        verifier = k.pqPublicKey().verifier();
    }

    @Override
    protected void engineInitSign(PrivateKey privateKey) throws InvalidKeyException {
        engineInitSign(privateKey, null);
    }

    @Override
    protected void engineInitSign(PrivateKey privateKey, SecureRandom random) throws InvalidKeyException {
        if (alg.hss) {
            if (!(privateKey instanceof HssStatefulPrivateKey)) {
                throw new InvalidKeyException(alg.name + " signing needs an HssStatefulPrivateKey bound to its state "
                        + "store (new HssStatefulPrivateKey(HssStatefulSigner.open(store))), got "
                        + Algorithms.describe(privateKey));
            }
            reset();
            hssSigner = ((HssStatefulPrivateKey) privateKey).signer();
            return;
        }
        if (privateKey instanceof HssStatefulPrivateKey) {
            throw new InvalidKeyException(alg.name + " cannot sign with an HSS / LMS key");
        }
        if (alg.isXmss()) {
            if (!(privateKey instanceof XmssStatefulPrivateKey)) {
                throw new InvalidKeyException(alg.name + " signing needs an XmssStatefulPrivateKey bound to its state "
                        + "store (new XmssStatefulPrivateKey(XmssStatefulSigner.open(store))), got "
                        + Algorithms.describe(privateKey));
            }
            XmssStatefulPrivateKey k = (XmssStatefulPrivateKey) privateKey;
            if (k.parameterSet().family() != alg.family) {
                throw new InvalidKeyException("a " + k.getAlgorithm() + " key cannot sign as " + alg.name);
            }
            reset();
            xmssSigner = k.signer();
            return;
        }
        if (privateKey instanceof XmssStatefulPrivateKey) {
            throw new InvalidKeyException(alg.name + " cannot sign with an XMSS key");
        }
        PqSignHaetaePrivateKey k = alg.translateHaetaePrivate(privateKey);
        reset();
        haetaeSigner = new HaetaeSigner(
                k.haetaePrivateKey(),
                EMPTY,
                HaetaeSampler.defaultSampler(),
                HaetaeEngine.FAST,
                random != null ? random : new SecureRandom());
    }

    private void reset() {
        message.reset();
        verifier = null;
        xmssSigner = null;
        hssSigner = null;
        haetaeSigner = null;
    }

    @Override
    protected void engineUpdate(byte b) throws SignatureException {
        requireInitialised();
        message.write(b);
    }

    @Override
    protected void engineUpdate(byte[] b, int off, int len) throws SignatureException {
        requireInitialised();
        message.write(b, off, len);
    }

    private void requireInitialised() throws SignatureException {
        if (verifier == null && xmssSigner == null && hssSigner == null && haetaeSigner == null) {
            throw new SignatureException(alg.name + " Signature is not initialised");
        }
    }

    @Override
    protected byte[] engineSign() throws SignatureException {
        if (xmssSigner == null && hssSigner == null && haetaeSigner == null) {
            throw new SignatureException(alg.name + " Signature is not initialised for signing");
        }
        byte[] m = message.toByteArray();
        message.reset();
        try {
            if (xmssSigner != null) {
                return xmssSigner.sign(m);
            }
            return hssSigner != null ? hssSigner.sign(m) : haetaeSigner.sign(m);
        } catch (PqSignException | IllegalStateException e) {
            // Exhausted key, failed state write, closed signer: the message says which; no signature exists.
            throw new SignatureException(alg.name + " signing failed: " + e.getMessage(), e);
        } finally {
            Arrays.fill(m, (byte) 0);
        }
    }

    /** Returns {@code false} for any invalid signature, including ones of the wrong length. */
    @Override
    protected boolean engineVerify(byte[] sigBytes) throws SignatureException {
        if (verifier == null) {
            throw new SignatureException(alg.name + " Signature is not initialised for verification");
        }
        byte[] m = message.toByteArray();
        message.reset();
        return verifier.verify(m, sigBytes);
    }

    /** @deprecated no parameters exist. */
    @Override
    @Deprecated
    protected void engineSetParameter(String param, Object value) {
        throw new InvalidParameterException(alg.name + " has no parameter '" + param + "'");
    }

    /** @deprecated no parameters exist. */
    @Override
    @Deprecated
    protected Object engineGetParameter(String param) {
        throw new InvalidParameterException(alg.name + " has no parameter '" + param + "'");
    }

    /** Signature "XMSS" (RFC 9802 id-alg-xmss-hashsig). */
    public static final class Xmss extends PqSignSignatureSpi {
        /** Created by the JCA for {@code Signature.getInstance("XMSS", "PQSign")}. */
        public Xmss() {
            super(Algorithms.xmss(XmssParameterSet.Family.XMSS));
        }
    }

    /** Signature "XMSSMT" (RFC 9802 id-alg-xmssmt-hashsig). */
    public static final class XmssMt extends PqSignSignatureSpi {
        /** Created by the JCA for {@code Signature.getInstance("XMSSMT", "PQSign")}. */
        public XmssMt() {
            super(Algorithms.xmss(XmssParameterSet.Family.XMSSMT));
        }
    }

    /**
     * Signature "HSS/LMS" (RFC 9708 id-alg-hss-lms-hashsig), named as the JDK names it. Verifies with
     * RFC 8554's rule (the lower trees are whatever the signature names).
     */
    public static final class HssLms extends PqSignSignatureSpi {
        /** Created by the JCA for {@code Signature.getInstance("HSS/LMS", "PQSign")}. */
        public HssLms() {
            super(Algorithms.hssLms());
        }
    }

    /** Signature "HAETAE": the set is the key's. */
    public static final class Haetae extends PqSignSignatureSpi {
        /** Created by the JCA for {@code Signature.getInstance("HAETAE", "PQSign")}. */
        public Haetae() {
            super(Algorithms.anyHaetae());
        }
    }

    /** Signature "HAETAE-2". */
    public static final class Haetae2 extends PqSignSignatureSpi {
        /** Created by the JCA for {@code Signature.getInstance("HAETAE-2", "PQSign")}. */
        public Haetae2() {
            super(Algorithms.haetae(HaetaeParameterSet.HAETAE_2));
        }
    }

    /** Signature "HAETAE-3". */
    public static final class Haetae3 extends PqSignSignatureSpi {
        /** Created by the JCA for {@code Signature.getInstance("HAETAE-3", "PQSign")}. */
        public Haetae3() {
            super(Algorithms.haetae(HaetaeParameterSet.HAETAE_3));
        }
    }

    /** Signature "HAETAE-5". */
    public static final class Haetae5 extends PqSignSignatureSpi {
        /** Created by the JCA for {@code Signature.getInstance("HAETAE-5", "PQSign")}. */
        public Haetae5() {
            super(Algorithms.haetae(HaetaeParameterSet.HAETAE_5));
        }
    }
}
