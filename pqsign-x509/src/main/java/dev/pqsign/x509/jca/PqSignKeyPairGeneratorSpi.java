package dev.pqsign.x509.jca;

import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.x509.PqPublicKey;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidParameterException;
import java.security.KeyPair;
import java.security.KeyPairGeneratorSpi;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.NamedParameterSpec;

/**
 * HAETAE key pair generation. "HAETAE" defaults to HAETAE-2; choose another set with
 * {@code initialize(new NamedParameterSpec("HAETAE-3"))}. There is deliberately no XMSS generator:
 * a new XMSS key must be created straight into its durable state store
 * ({@link dev.pqsign.xmss.XmssStatefulSigner#create}), never handed out as a free-floating object.
 */
public class PqSignKeyPairGeneratorSpi extends KeyPairGeneratorSpi {
    private final boolean fixed;
    private HaetaeParameterSet set;
    private SecureRandom random;

    PqSignKeyPairGeneratorSpi(HaetaeParameterSet set, boolean fixed) {
        this.set = set;
        this.fixed = fixed;
    }

    /** @throws InvalidParameterException always: HAETAE sets are chosen by name, not key size */
    @Override
    public void initialize(int keysize, SecureRandom random) {
        throw new InvalidParameterException(
                "HAETAE sets are chosen by name: initialize(new NamedParameterSpec(\"HAETAE-3\"))");
    }

    @Override
    public void initialize(AlgorithmParameterSpec params, SecureRandom random)
            throws InvalidAlgorithmParameterException {
        if (!(params instanceof NamedParameterSpec)) {
            throw new InvalidAlgorithmParameterException("expected a NamedParameterSpec such as HAETAE-3, got "
                    + (params == null ? "null" : params.getClass().getName()));
        }
        HaetaeParameterSet chosen;
        try {
            chosen = HaetaeParameterSet.fromName(((NamedParameterSpec) params).getName());
        } catch (IllegalArgumentException e) {
            throw new InvalidAlgorithmParameterException(e.getMessage(), e);
        }
        if (fixed && chosen != set) {
            throw new InvalidAlgorithmParameterException(
                    "this generator makes " + set.setName() + " keys, not " + chosen.setName());
        }
        this.set = chosen;
        this.random = random;
    }

    @Override
    public KeyPair generateKeyPair() {
        SecureRandom r = random != null ? random : new SecureRandom();
        HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(set, r);
        return new KeyPair(
                new PqSignPublicKey(PqPublicKey.of(kp.publicKey())), new PqSignHaetaePrivateKey(kp.privateKey()));
    }

    /** KeyPairGenerator "HAETAE" (HAETAE-2 unless initialised otherwise). */
    public static final class Haetae extends PqSignKeyPairGeneratorSpi {
        /** Created by the JCA for {@code KeyPairGenerator.getInstance("HAETAE", "PQSign")}. */
        public Haetae() {
            super(HaetaeParameterSet.HAETAE_2, false);
        }
    }

    /** KeyPairGenerator "HAETAE-2". */
    public static final class Haetae2 extends PqSignKeyPairGeneratorSpi {
        /** Created by the JCA for {@code KeyPairGenerator.getInstance("HAETAE-2", "PQSign")}. */
        public Haetae2() {
            super(HaetaeParameterSet.HAETAE_2, true);
        }
    }

    /** KeyPairGenerator "HAETAE-3". */
    public static final class Haetae3 extends PqSignKeyPairGeneratorSpi {
        /** Created by the JCA for {@code KeyPairGenerator.getInstance("HAETAE-3", "PQSign")}. */
        public Haetae3() {
            super(HaetaeParameterSet.HAETAE_3, true);
        }
    }

    /** KeyPairGenerator "HAETAE-5". */
    public static final class Haetae5 extends PqSignKeyPairGeneratorSpi {
        /** Created by the JCA for {@code KeyPairGenerator.getInstance("HAETAE-5", "PQSign")}. */
        public Haetae5() {
            super(HaetaeParameterSet.HAETAE_5, true);
        }
    }
}
