package dev.pqsign.telemetry;

import dev.pqsign.core.ParameterSet;
import dev.pqsign.core.Signer;
import dev.pqsign.core.Verifier;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;

/**
 * TEST DOUBLE, not a pqsign scheme: a {@link Signer}/{@link Verifier} pair built on the JDK's
 * Ed25519 so telemetry and OPC UA tests can run before the XMSS and HAETAE modules exist. Like
 * HAETAE it is stateless and its signatures carry no index, so it is wrapped in a
 * {@link SequencedSigner} to obtain indices.
 */
public final class Ed25519TestDouble {

    /** The double's parameter set: 64-byte signatures, 44-byte SubjectPublicKeyInfo public keys. */
    public static final ParameterSet PARAMS = new ParameterSet() {
        @Override
        public String setName() {
            return "ED25519-TEST-DOUBLE";
        }

        @Override
        public int signatureBytes() {
            return 64;
        }

        @Override
        public int publicKeyBytes() {
            return 44;
        }

        @Override
        public boolean isStateful() {
            return false;
        }
    };

    private final KeyPair keyPair;

    private Ed25519TestDouble(KeyPair keyPair) {
        this.keyPair = keyPair;
    }

    /** A fresh random key pair. */
    public static Ed25519TestDouble generate() {
        try {
            return new Ed25519TestDouble(KeyPairGenerator.getInstance("Ed25519").generateKeyPair());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The public key encoding (X.509 SubjectPublicKeyInfo). */
    public byte[] publicKey() {
        return keyPair.getPublic().getEncoded();
    }

    /** The key id of {@link #publicKey()}. */
    public KeyId keyId() {
        return KeyId.ofPublicKey(publicKey());
    }

    /** A signer for this key. */
    public Signer signer() {
        return new Signer() {
            @Override
            public byte[] sign(byte[] message) {
                try {
                    Signature s = Signature.getInstance("Ed25519");
                    s.initSign(keyPair.getPrivate());
                    s.update(message);
                    return s.sign();
                } catch (GeneralSecurityException e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public ParameterSet parameterSet() {
                return PARAMS;
            }
        };
    }

    /** A verifier for this key. */
    public Verifier verifier() {
        return verifier(publicKey());
    }

    /** A verifier for an encoded Ed25519 public key. */
    public static Verifier verifier(byte[] publicKeyEncoding) {
        PublicKey pub;
        try {
            pub = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(publicKeyEncoding));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not an Ed25519 public key", e);
        }
        return new Verifier() {
            @Override
            public boolean verify(byte[] message, byte[] signature) {
                try {
                    Signature s = Signature.getInstance("Ed25519");
                    s.initVerify(pub);
                    s.update(message);
                    return s.verify(signature);
                } catch (GeneralSecurityException | RuntimeException e) {
                    return false;
                }
            }

            @Override
            public ParameterSet parameterSet() {
                return PARAMS;
            }
        };
    }
}
