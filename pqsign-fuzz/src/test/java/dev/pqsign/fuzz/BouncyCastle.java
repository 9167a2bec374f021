package dev.pqsign.fuzz;

import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaePublicKey;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPublicKey;
import org.bouncycastle.crypto.Signer;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.ParametersWithContext;
import org.bouncycastle.crypto.params.XMSSMTParameters;
import org.bouncycastle.crypto.params.XMSSMTPublicKeyParameters;
import org.bouncycastle.crypto.params.XMSSParameters;
import org.bouncycastle.crypto.params.XMSSPublicKeyParameters;
import org.bouncycastle.crypto.signers.XMSSMTSigner;
import org.bouncycastle.crypto.signers.XMSSSigner;
import org.bouncycastle.pqc.crypto.haetae.HAETAEParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAEPublicKeyParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAESigner;

/**
 * BouncyCastle 1.87 as the independent second opinion of the differential targets. An exception
 * thrown by BouncyCastle on a malformed signature counts as a rejection (it accepted nothing).
 */
final class BouncyCastle {
    private BouncyCastle() {}

    /** A BouncyCastle verifier for one XMSS / XMSS^MT public key (SHA-256, n = 32 sets only). */
    static final class Xmss {
        private final XmssParameterSet set;
        private final AsymmetricKeyParameter pub;

        Xmss(XmssPublicKey key) {
            this.set = key.parameterSet();
            if (set.n() != 32 || !set.setName().contains("SHA2")) {
                throw new IllegalArgumentException("only SHA2 n = 32 sets are compared: " + set);
            }
            this.pub = set.family() == XmssParameterSet.Family.XMSS
                    ? new XMSSPublicKeyParameters.Builder(new XMSSParameters(set.height(), new SHA256Digest()))
                            .withRoot(key.root())
                            .withPublicSeed(key.pubSeed())
                            .build()
                    : new XMSSMTPublicKeyParameters.Builder(
                                    new XMSSMTParameters(set.height(), set.layers(), new SHA256Digest()))
                            .withRoot(key.root())
                            .withPublicSeed(key.pubSeed())
                            .build();
        }

        boolean verify(byte[] message, byte[] signature) {
            try {
                Signer v = set.family() == XmssParameterSet.Family.XMSS ? new XMSSSigner() : new XMSSMTSigner();
                v.init(false, pub);
                v.update(message, 0, message.length);
                return v.verifySignature(signature);
            } catch (RuntimeException e) {
                return false;
            }
        }
    }

    /** A BouncyCastle verifier for one HAETAE public key. */
    static final class Haetae {
        private final HAETAEPublicKeyParameters pub;

        Haetae(HaetaePublicKey key) {
            this.pub = new HAETAEPublicKeyParameters(params(key.parameterSet()), key.getEncoded());
        }

        /**
         * BouncyCastle 1.87 passes its "context" straight through as the reference's prefix
         * {@code pre}; pqsign implements the reference's context API, pre = len(ctx) || ctx.
         */
        boolean verify(byte[] message, byte[] ctx, byte[] signature) {
            byte[] pre = new byte[ctx.length + 1];
            pre[0] = (byte) ctx.length;
            System.arraycopy(ctx, 0, pre, 1, ctx.length);
            try {
                HAETAESigner s = new HAETAESigner();
                s.init(false, new ParametersWithContext(pub, pre));
                return s.verifySignature(message, signature);
            } catch (RuntimeException e) {
                return false;
            }
        }
    }

    static HAETAEParameters params(HaetaeParameterSet p) {
        switch (p) {
            case HAETAE_2:
                return HAETAEParameters.haetae2;
            case HAETAE_3:
                return HAETAEParameters.haetae3;
            default:
                return HAETAEParameters.haetae5;
        }
    }
}
