package dev.pqsign.fuzz;

import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaePublicKey;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPublicKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.bouncycastle.crypto.Signer;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.HSSPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithContext;
import org.bouncycastle.crypto.params.XMSSMTParameters;
import org.bouncycastle.crypto.params.XMSSMTPublicKeyParameters;
import org.bouncycastle.crypto.params.XMSSParameters;
import org.bouncycastle.crypto.params.XMSSPublicKeyParameters;
import org.bouncycastle.crypto.signers.HSSSigner;
import org.bouncycastle.crypto.signers.XMSSMTSigner;
import org.bouncycastle.crypto.signers.XMSSSigner;
import org.bouncycastle.pqc.crypto.haetae.HAETAEParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAEPublicKeyParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAESigner;

/**
 * BouncyCastle 1.87 as the independent second opinion of the differential targets. An exception
 * thrown by BouncyCastle on a malformed signature counts as a rejection (it accepted nothing).
 *
 * <p>Its verdicts are remembered for the run (see {@link #verdict}): most of a differential
 * target's time is BouncyCastle's XMSS verification, and a fuzzer asks the same question again
 * whenever it mutates a byte the signed message does not contain (a selector, a key id, a field
 * outside the message) or repeats an input.
 */
final class BouncyCastle {
    /** Verdicts kept at most; when full the memory is emptied (a few MiB, no eviction order to get wrong). */
    private static final int REMEMBERED = 1 << 16;

    private static final Map<ByteBuffer, Boolean> VERDICTS = new HashMap<>();

    private BouncyCastle() {}

    /**
     * BouncyCastle's verdict on one question (the algorithm, public key, context, message and
     * signature, as {@code question}), asked of BouncyCastle ({@code ask}) only the first time.
     *
     * <p>Why a remembered verdict cannot hide a disagreement: BouncyCastle's XMSS, XMSS^MT and HAETAE
     * verification is a pure function of exactly these inputs (no state, no randomness), so asking
     * again would give the same answer. The memory is keyed by SHA-256 over the length-prefixed
     * parts, so a different question gets another question's answer only through a SHA-256
     * collision. pqsign's side is never answered from memory: it verifies every input.
     */
    private static synchronized boolean verdict(byte[][] question, BooleanSupplier ask) {
        ByteBuffer id = ByteBuffer.wrap(digest(question));
        Boolean known = VERDICTS.get(id);
        if (known != null) {
            return known;
        }
        boolean v = ask.getAsBoolean();
        if (VERDICTS.size() >= REMEMBERED) {
            VERDICTS.clear();
        }
        VERDICTS.put(id, v);
        return v;
    }

    private static byte[] digest(byte[][] parts) {
        MessageDigest d;
        try {
            d = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        for (byte[] p : parts) {
            d.update(ByteBuffer.allocate(Integer.BYTES).putInt(p.length).array());
            d.update(p);
        }
        return d.digest();
    }

    /** A BouncyCastle verifier for one XMSS / XMSS^MT public key (SHA-256, n = 32 sets only). */
    static final class Xmss {
        private static final byte[] ALGORITHM = "XMSS".getBytes(StandardCharsets.US_ASCII);
        private final XmssParameterSet set;
        private final byte[] setName;
        private final byte[] encodedKey;
        private final AsymmetricKeyParameter pub;

        Xmss(XmssPublicKey key) {
            this.set = key.parameterSet();
            this.setName = set.setName().getBytes(StandardCharsets.US_ASCII);
            this.encodedKey = key.encoded();
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
            return verdict(
                    new byte[][] {ALGORITHM, setName, encodedKey, message, signature}, () -> ask(message, signature));
        }

        private boolean ask(byte[] message, byte[] signature) {
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

    /**
     * BouncyCastle's HSS / LMS verdict on a signature under an encoded HSS public key; a key it
     * cannot parse, like an exception while verifying, is a rejection.
     */
    static boolean hssVerify(byte[] publicKey, byte[] message, byte[] signature) {
        return verdict(new byte[][] {"HSS".getBytes(StandardCharsets.US_ASCII), publicKey, message, signature}, () -> {
            try {
                HSSSigner v = new HSSSigner();
                v.init(false, HSSPublicKeyParameters.getInstance(publicKey));
                return v.verifySignature(message, signature);
            } catch (java.io.IOException | RuntimeException e) {
                return false;
            }
        });
    }

    /** A BouncyCastle verifier for one HAETAE public key. */
    static final class Haetae {
        private static final byte[] ALGORITHM = "HAETAE".getBytes(StandardCharsets.US_ASCII);
        private final byte[] setName;
        private final byte[] encodedKey;
        private final HAETAEPublicKeyParameters pub;

        Haetae(HaetaePublicKey key) {
            this.setName = key.parameterSet().setName().getBytes(StandardCharsets.US_ASCII);
            this.encodedKey = key.getEncoded();
            this.pub = new HAETAEPublicKeyParameters(params(key.parameterSet()), encodedKey.clone());
        }

        /**
         * BouncyCastle 1.87 passes its "context" straight through as the reference's prefix
         * {@code pre}; pqsign implements the reference's context API, pre = len(ctx) || ctx.
         */
        boolean verify(byte[] message, byte[] ctx, byte[] signature) {
            return verdict(
                    new byte[][] {ALGORITHM, setName, encodedKey, ctx, message, signature},
                    () -> ask(message, ctx, signature));
        }

        private boolean ask(byte[] message, byte[] ctx, byte[] signature) {
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
