package dev.pqsign.bench;

import dev.pqsign.xmss.XmssParameterSet;
import java.security.SecureRandom;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.Signer;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.XMSSKeyPairGenerator;
import org.bouncycastle.crypto.generators.XMSSMTKeyPairGenerator;
import org.bouncycastle.crypto.params.XMSSKeyGenerationParameters;
import org.bouncycastle.crypto.params.XMSSMTKeyGenerationParameters;
import org.bouncycastle.crypto.params.XMSSMTParameters;
import org.bouncycastle.crypto.params.XMSSParameters;
import org.bouncycastle.crypto.signers.XMSSMTSigner;
import org.bouncycastle.crypto.signers.XMSSSigner;

/** BouncyCastle 1.87's XMSS / XMSS^MT (lightweight API) for the SHA-256 n = 32 sets. */
final class BcXmss {
    private BcXmss() {}

    static AsymmetricCipherKeyPair keyPair(XmssParameterSet p, SecureRandom rnd) {
        if (p.family() == XmssParameterSet.Family.XMSS) {
            XMSSKeyPairGenerator g = new XMSSKeyPairGenerator();
            g.init(new XMSSKeyGenerationParameters(new XMSSParameters(p.height(), new SHA256Digest()), rnd));
            return g.generateKeyPair();
        }
        XMSSMTKeyPairGenerator g = new XMSSMTKeyPairGenerator();
        g.init(new XMSSMTKeyGenerationParameters(
                new XMSSMTParameters(p.height(), p.layers(), new SHA256Digest()), rnd));
        return g.generateKeyPair();
    }

    static Signer signer(XmssParameterSet p) {
        return p.family() == XmssParameterSet.Family.XMSS ? new XMSSSigner() : new XMSSMTSigner();
    }

    static long remaining(Signer s) {
        return s instanceof XMSSSigner
                ? ((XMSSSigner) s).getUsagesRemaining()
                : ((XMSSMTSigner) s).getUsagesRemaining();
    }
}
