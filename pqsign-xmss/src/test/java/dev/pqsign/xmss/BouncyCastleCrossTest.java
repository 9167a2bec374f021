package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.Hex;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.stream.Stream;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.XMSSKeyPairGenerator;
import org.bouncycastle.crypto.generators.XMSSMTKeyPairGenerator;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.XMSSKeyGenerationParameters;
import org.bouncycastle.crypto.params.XMSSMTKeyGenerationParameters;
import org.bouncycastle.crypto.params.XMSSMTParameters;
import org.bouncycastle.crypto.params.XMSSMTPublicKeyParameters;
import org.bouncycastle.crypto.params.XMSSParameters;
import org.bouncycastle.crypto.params.XMSSPublicKeyParameters;
import org.bouncycastle.crypto.signers.XMSSMTSigner;
import org.bouncycastle.crypto.signers.XMSSSigner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Interoperability with BouncyCastle 1.87 (an independent implementation) for the n = 32 SHA-256
 * sets, the study's three included: with the RFC 8391 derivation our keys and signatures are
 * byte-identical to BouncyCastle's; in every case each side verifies the other's signatures.
 */
class BouncyCastleCrossTest {

    static Stream<XmssParameterSet> sets() {
        return Stream.of(
                XmssParameterSet.XMSSMT_SHA2_10_2_256,
                XmssParameterSet.XMSSMT_SHA2_20_4_256,
                XmssParameterSet.XMSSMT_SHA2_30_6_256,
                XmssParameterSet.XMSSMT_SHA2_20_2_256,
                XmssParameterSet.XMSS_SHA2_10_256);
    }

    /** A SecureRandom that hands out a fixed byte string, so BouncyCastle draws exactly our seeds. */
    private static final class FixedRandom extends SecureRandom {
        private static final long serialVersionUID = 1L;
        private final byte[] bytes;
        private int pos;

        FixedRandom(byte[] bytes) {
            this.bytes = bytes.clone();
        }

        @Override
        public void nextBytes(byte[] out) {
            for (int i = 0; i < out.length; i++) {
                out[i] = bytes[pos++ % bytes.length];
            }
        }
    }

    private static byte[] seed(int n) {
        byte[] s = new byte[3 * n];
        for (int i = 0; i < s.length; i++) {
            s[i] = (byte) (i * 7 + 3);
        }
        return s;
    }

    /** One BouncyCastle key: its public values, a signer (when it has the private key) and a verifier. */
    private static final class BcSide {
        private final XmssParameterSet params;
        private final AsymmetricKeyParameter pub;
        private final org.bouncycastle.crypto.Signer signer;

        BcSide(XmssParameterSet params, AsymmetricKeyParameter pub, AsymmetricKeyParameter priv) {
            this.params = params;
            this.pub = pub;
            this.signer = priv == null ? null : newSigner(params);
            if (signer != null) {
                signer.init(true, priv);
            }
        }

        private static org.bouncycastle.crypto.Signer newSigner(XmssParameterSet p) {
            return p.family() == XmssParameterSet.Family.XMSS ? new XMSSSigner() : new XMSSMTSigner();
        }

        byte[] root() {
            return pub instanceof XMSSPublicKeyParameters
                    ? ((XMSSPublicKeyParameters) pub).getRoot()
                    : ((XMSSMTPublicKeyParameters) pub).getRoot();
        }

        byte[] publicSeed() {
            return pub instanceof XMSSPublicKeyParameters
                    ? ((XMSSPublicKeyParameters) pub).getPublicSeed()
                    : ((XMSSMTPublicKeyParameters) pub).getPublicSeed();
        }

        byte[] sign(byte[] msg) throws Exception {
            signer.update(msg, 0, msg.length);
            return signer.generateSignature();
        }

        boolean verify(byte[] msg, byte[] sig) {
            org.bouncycastle.crypto.Signer v = newSigner(params);
            v.init(false, pub);
            v.update(msg, 0, msg.length);
            return v.verifySignature(sig);
        }
    }

    /** A BouncyCastle key generated from {@code seed} (BouncyCastle draws SK_SEED, SK_PRF, PUB_SEED in that order). */
    private static BcSide bouncyCastle(XmssParameterSet p, byte[] seed) {
        SecureRandom rnd = new FixedRandom(seed);
        AsymmetricCipherKeyPair kp;
        if (p.family() == XmssParameterSet.Family.XMSS) {
            XMSSKeyPairGenerator g = new XMSSKeyPairGenerator();
            g.init(new XMSSKeyGenerationParameters(new XMSSParameters(p.height(), new SHA256Digest()), rnd));
            kp = g.generateKeyPair();
        } else {
            XMSSMTKeyPairGenerator g = new XMSSMTKeyPairGenerator();
            g.init(new XMSSMTKeyGenerationParameters(
                    new XMSSMTParameters(p.height(), p.layers(), new SHA256Digest()), rnd));
            kp = g.generateKeyPair();
        }
        return new BcSide(p, kp.getPublic(), kp.getPrivate());
    }

    /** BouncyCastle's view of one of our public keys. */
    private static BcSide verifierOnly(XmssParameterSet p, XmssPublicKey key) {
        AsymmetricKeyParameter pub = p.family() == XmssParameterSet.Family.XMSS
                ? new XMSSPublicKeyParameters.Builder(new XMSSParameters(p.height(), new SHA256Digest()))
                        .withRoot(key.root())
                        .withPublicSeed(key.pubSeed())
                        .build()
                : new XMSSMTPublicKeyParameters.Builder(
                                new XMSSMTParameters(p.height(), p.layers(), new SHA256Digest()))
                        .withRoot(key.root())
                        .withPublicSeed(key.pubSeed())
                        .build();
        return new BcSide(p, pub, null);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sets")
    void rfc8391Derivation_keysAndSignaturesByteIdenticalToBouncyCastle(XmssParameterSet p) throws Exception {
        byte[] seed = seed(p.n());
        BcSide bc = bouncyCastle(p, seed);
        XmssPrivateKey ours = XmssKeyGenerator.fromSeed(p, WotsDerivation.RFC8391, seed, 2, null);
        assertEquals(Hex.encode(bc.root()), Hex.encode(ours.publicKey().root()), "root");
        assertArrayEquals(bc.publicSeed(), ours.publicKey().pubSeed(), "PUB_SEED");

        XmssSigning signing = new XmssSigning(ours).cachingUpperLayers();
        CachedAuthPaths cache = new CachedAuthPaths(ours, signing.treeHash, 2);
        XmssVerifier verifier = new XmssVerifier(ours.publicKey());
        for (long i = 0; i < 3; i++) {
            byte[] msg = ("message " + i).getBytes(StandardCharsets.UTF_8);
            byte[] bcSig = bc.sign(msg);
            byte[] ourSig = signing.sign(i, msg, cache);
            assertEquals(Hex.encode(bcSig), Hex.encode(ourSig), "signature at index " + i);
            assertTrue(verifier.verify(msg, bcSig), "we verify BouncyCastle's signature " + i);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sets")
    void sp800208Keys_verifiedByBouncyCastle_andTamperingRejectedByBoth(XmssParameterSet p) {
        XmssPrivateKey ours = XmssKeyGenerator.generate(p, WotsDerivation.SP800_208, new SecureRandom(), 2, null);
        XmssSigning signing = new XmssSigning(ours);
        byte[] msg = "sensor reading".getBytes(StandardCharsets.UTF_8);
        long idx = p.maxSignatures() - 1 - (p.maxSignatures() / 3);
        byte[] sig = signing.sign(idx, msg, signing.recomputing(2));

        BcSide bcVerifier = verifierOnly(p, ours.publicKey());
        assertTrue(bcVerifier.verify(msg, sig), "BouncyCastle verifies our signature");
        byte[] bad = sig.clone();
        bad[sig.length - 5] ^= 0x20;
        assertFalse(bcVerifier.verify(msg, bad), "BouncyCastle rejects a tampered signature");
        assertFalse(new XmssVerifier(ours.publicKey()).verify(msg, bad), "we reject it too");
    }
}
