package dev.pqsign.x509.jca;

import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.xmss.XmssParameterSet;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyFactorySpi;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;

/**
 * KeyFactory for XMSS, XMSS^MT, HSS / LMS (public keys only) and HAETAE (public: X.509; private:
 * PKCS#8).
 * Registered by {@link PqSignProvider}; use through {@code KeyFactory.getInstance(name, "PQSign")}.
 */
public class PqSignKeyFactorySpi extends KeyFactorySpi {
    private final Algorithms alg;

    PqSignKeyFactorySpi(Algorithms alg) {
        this.alg = alg;
    }

    @Override
    protected PublicKey engineGeneratePublic(KeySpec spec) throws InvalidKeySpecException {
        if (spec instanceof X509EncodedKeySpec) {
            return alg.publicFromX509(((X509EncodedKeySpec) spec).getEncoded());
        }
        throw new InvalidKeySpecException(alg.name + " public keys come as X509EncodedKeySpec, got "
                + (spec == null ? "null" : spec.getClass().getName()));
    }

    @Override
    protected PrivateKey engineGeneratePrivate(KeySpec spec) throws InvalidKeySpecException {
        if (spec instanceof PKCS8EncodedKeySpec) {
            return alg.privateFromPkcs8(((PKCS8EncodedKeySpec) spec).getEncoded());
        }
        if (alg.isStateful()) {
            alg.privateFromPkcs8(new byte[0]); // throws the SP 800-208 explanation
        }
        throw new InvalidKeySpecException(alg.name + " private keys come as PKCS8EncodedKeySpec, got "
                + (spec == null ? "null" : spec.getClass().getName()));
    }

    @Override
    protected <T extends KeySpec> T engineGetKeySpec(Key key, Class<T> type) throws InvalidKeySpecException {
        if (key instanceof PublicKey && type.isAssignableFrom(X509EncodedKeySpec.class)) {
            try {
                return type.cast(new X509EncodedKeySpec(
                        alg.translatePublic((PublicKey) key).getEncoded()));
            } catch (InvalidKeyException e) {
                throw new InvalidKeySpecException(e.getMessage(), e);
            }
        }
        if (key instanceof XmssStatefulPrivateKey || key instanceof HssStatefulPrivateKey) {
            throw new InvalidKeySpecException(
                    key.getAlgorithm() + " private keys have no key spec: they are never exported (SP 800-208)");
        }
        if (key instanceof PrivateKey && !alg.isStateful() && type.isAssignableFrom(PKCS8EncodedKeySpec.class)) {
            try {
                return type.cast(new PKCS8EncodedKeySpec(
                        alg.translateHaetaePrivate((PrivateKey) key).getEncoded()));
            } catch (InvalidKeyException e) {
                throw new InvalidKeySpecException(e.getMessage(), e);
            }
        }
        throw new InvalidKeySpecException("cannot give " + Algorithms.describe(key) + " as " + type.getName());
    }

    @Override
    protected Key engineTranslateKey(Key key) throws InvalidKeyException {
        if (key instanceof PublicKey) {
            return alg.translatePublic((PublicKey) key);
        }
        if (key instanceof XmssStatefulPrivateKey && alg.isXmss()) {
            return key;
        }
        if (key instanceof HssStatefulPrivateKey && alg.hss) {
            return key;
        }
        if (key instanceof PrivateKey && !alg.isStateful()) {
            return alg.translateHaetaePrivate((PrivateKey) key);
        }
        throw new InvalidKeyException(alg.name + " cannot translate " + Algorithms.describe(key));
    }

    /** KeyFactory "XMSS". */
    public static final class Xmss extends PqSignKeyFactorySpi {
        /** Created by the JCA for {@code KeyFactory.getInstance("XMSS", "PQSign")}. */
        public Xmss() {
            super(Algorithms.xmss(XmssParameterSet.Family.XMSS));
        }
    }

    /** KeyFactory "XMSSMT". */
    public static final class XmssMt extends PqSignKeyFactorySpi {
        /** Created by the JCA for {@code KeyFactory.getInstance("XMSSMT", "PQSign")}. */
        public XmssMt() {
            super(Algorithms.xmss(XmssParameterSet.Family.XMSSMT));
        }
    }

    /** KeyFactory "HSS/LMS" (RFC 9708 id-alg-hss-lms-hashsig), named as the JDK names it. */
    public static final class HssLms extends PqSignKeyFactorySpi {
        /** Created by the JCA for {@code KeyFactory.getInstance("HSS/LMS", "PQSign")}. */
        public HssLms() {
            super(Algorithms.hssLms());
        }
    }

    /** KeyFactory "HAETAE" (any set). */
    public static final class Haetae extends PqSignKeyFactorySpi {
        /** Created by the JCA for {@code KeyFactory.getInstance("HAETAE", "PQSign")}. */
        public Haetae() {
            super(Algorithms.anyHaetae());
        }
    }

    /** KeyFactory "HAETAE-2". */
    public static final class Haetae2 extends PqSignKeyFactorySpi {
        /** Created by the JCA for {@code KeyFactory.getInstance("HAETAE-2", "PQSign")}. */
        public Haetae2() {
            super(Algorithms.haetae(HaetaeParameterSet.HAETAE_2));
        }
    }

    /** KeyFactory "HAETAE-3". */
    public static final class Haetae3 extends PqSignKeyFactorySpi {
        /** Created by the JCA for {@code KeyFactory.getInstance("HAETAE-3", "PQSign")}. */
        public Haetae3() {
            super(Algorithms.haetae(HaetaeParameterSet.HAETAE_3));
        }
    }

    /** KeyFactory "HAETAE-5". */
    public static final class Haetae5 extends PqSignKeyFactorySpi {
        /** Created by the JCA for {@code KeyFactory.getInstance("HAETAE-5", "PQSign")}. */
        public Haetae5() {
            super(Algorithms.haetae(HaetaeParameterSet.HAETAE_5));
        }
    }
}
