package dev.pqsign.bench.report;

import static dev.pqsign.bench.report.BenchRunner.MESSAGE;

import dev.pqsign.bench.report.BenchReport.Sizes;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.AsymmetricCipherKeyPairGenerator;
import org.bouncycastle.crypto.CipherParameters;
import org.bouncycastle.crypto.CryptoException;
import org.bouncycastle.crypto.Signer;
import org.bouncycastle.crypto.generators.MLDSAKeyPairGenerator;
import org.bouncycastle.crypto.params.MLDSAKeyGenerationParameters;
import org.bouncycastle.crypto.params.MLDSAParameters;
import org.bouncycastle.crypto.params.MLDSAPrivateKeyParameters;
import org.bouncycastle.crypto.params.MLDSAPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.MLDSASigner;
import org.bouncycastle.pqc.crypto.MessageSigner;
import org.bouncycastle.pqc.crypto.haetae.HAETAEKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAEKeyPairGenerator;
import org.bouncycastle.pqc.crypto.haetae.HAETAEParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAEPrivateKeyParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAEPublicKeyParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAESigner;

/**
 * BouncyCastle 1.87's rows for the stateless lattice schemes, HAETAE and ML-DSA, timed alike: keygen,
 * sign (with the signer's randomness), verify of a signature checked first, and the sizes.
 */
final class BcLatticeRows {
    private BcLatticeRows() {}

    /**
     * One scheme as BouncyCastle has it.
     *
     * @param family the scheme's name in an error message
     * @param generator key-pair generator, initialised for the parameter set
     * @param signers a fresh signer, for signing or for verifying
     * @param publicKeyBytes encoded length of a pair's public key
     * @param privateKeyBytes encoded length of a pair's private key
     */
    private record Scheme(
            String family,
            AsymmetricCipherKeyPairGenerator generator,
            Supplier<MessageSigner> signers,
            ToIntFunction<AsymmetricCipherKeyPair> publicKeyBytes,
            ToIntFunction<AsymmetricCipherKeyPair> privateKeyBytes) {}

    /** BouncyCastle's HAETAE ({@code pqc.crypto.haetae}, the v1.1.2 sampler) for HAETAE-2, -3 or -5. */
    static void haetae(Measurements m, String name) throws Exception {
        HAETAEParameters bp = name.equals("HAETAE-2")
                ? HAETAEParameters.haetae2
                : name.equals("HAETAE-3") ? HAETAEParameters.haetae3 : HAETAEParameters.haetae5;
        HAETAEKeyPairGenerator g = new HAETAEKeyPairGenerator();
        g.init(new HAETAEKeyGenerationParameters(m.random(), bp));
        run(
                m,
                name,
                new Scheme(
                        "HAETAE",
                        g,
                        HAETAESigner::new,
                        k -> ((HAETAEPublicKeyParameters) k.getPublic()).getEncoded().length,
                        k -> ((HAETAEPrivateKeyParameters) k.getPrivate()).getEncoded().length));
    }

    /** BouncyCastle's ML-DSA ({@code MLDSASigner}) for ML-DSA-44, -65 or -87. */
    static void mldsa(Measurements m, String name) throws Exception {
        MLDSAParameters mp = name.equals("ML-DSA-44")
                ? MLDSAParameters.ml_dsa_44
                : name.equals("ML-DSA-65") ? MLDSAParameters.ml_dsa_65 : MLDSAParameters.ml_dsa_87;
        MLDSAKeyPairGenerator g = new MLDSAKeyPairGenerator();
        g.init(new MLDSAKeyGenerationParameters(m.random(), mp));
        run(
                m,
                name,
                new Scheme(
                        "ML-DSA",
                        g,
                        () -> messageSigner(new MLDSASigner()),
                        k -> ((MLDSAPublicKeyParameters) k.getPublic()).getEncoded().length,
                        k -> ((MLDSAPrivateKeyParameters) k.getPrivate()).getEncoded().length));
    }

    private static void run(Measurements m, String name, Scheme s) throws Exception {
        m.record(name, "keygen", "bouncycastle", 1, s.generator()::generateKeyPair);
        AsymmetricCipherKeyPair kp = s.generator().generateKeyPair();
        MessageSigner signer = s.signers().get();
        signer.init(true, new ParametersWithRandom(kp.getPrivate(), m.random()));
        SignatureLengths lengths = new SignatureLengths();
        m.record(name, "sign", "bouncycastle", 1, () -> lengths.seen(signer.generateSignature(MESSAGE)));
        byte[] sig = signer.generateSignature(MESSAGE);
        MessageSigner verifier = s.signers().get();
        verifier.init(false, kp.getPublic());
        if (!verifier.verifySignature(MESSAGE, sig)) {
            throw new IllegalStateException(name + ": BouncyCastle " + s.family() + " signature does not verify");
        }
        m.record(name, "verify", "bouncycastle", 1, () -> verifier.verifySignature(MESSAGE, sig));
        m.size(new Sizes(
                name,
                "bouncycastle",
                s.publicKeyBytes().applyAsInt(kp),
                s.privateKeyBytes().applyAsInt(kp),
                -1,
                lengths.min(),
                lengths.max()));
    }

    /** A streaming {@link Signer} (ML-DSA) as a signer of whole messages, like BouncyCastle's HAETAE. */
    private static MessageSigner messageSigner(Signer s) {
        return new MessageSigner() {
            @Override
            public void init(boolean forSigning, CipherParameters key) {
                s.init(forSigning, key);
            }

            @Override
            public byte[] generateSignature(byte[] message) {
                s.update(message, 0, message.length);
                try {
                    return s.generateSignature();
                } catch (CryptoException e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public boolean verifySignature(byte[] message, byte[] signature) {
                s.update(message, 0, message.length);
                return s.verifySignature(signature);
            }
        };
    }
}
