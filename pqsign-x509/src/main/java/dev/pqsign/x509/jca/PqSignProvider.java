package dev.pqsign.x509.jca;

import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.x509.Oids;
import java.security.Provider;
import java.util.List;

/**
 * The "PQSign" JCA provider: XMSS, XMSS^MT, HSS / LMS and HAETAE through standard {@code java.security}
 * APIs.
 *
 * <table>
 * <caption>Services</caption>
 * <tr><th>type</th><th>algorithms (aliases: OIDs)</th><th>notes</th></tr>
 * <tr><td>KeyFactory</td><td>XMSS, XMSSMT</td><td>X.509 public keys only; PKCS#8 refused (SP 800-208)</td></tr>
 * <tr><td>KeyFactory</td><td>HSS/LMS</td><td>X.509 public keys only; PKCS#8 refused (SP 800-208)</td></tr>
 * <tr><td>KeyFactory</td><td>HAETAE, HAETAE-2, HAETAE-3, HAETAE-5</td><td>X.509 public, PKCS#8 private</td></tr>
 * <tr><td>Signature</td><td>XMSS, XMSSMT</td><td>verify with any key; sign with {@link XmssStatefulPrivateKey}</td></tr>
 * <tr><td>Signature</td><td>HSS/LMS</td><td>verify with any key; sign with {@link HssStatefulPrivateKey}</td></tr>
 * <tr><td>Signature</td><td>HAETAE, HAETAE-2, HAETAE-3, HAETAE-5</td><td>sign and verify</td></tr>
 * <tr><td>KeyPairGenerator</td><td>HAETAE, HAETAE-2, HAETAE-3, HAETAE-5</td><td>no XMSS generator, see
 * {@link PqSignKeyPairGeneratorSpi}</td></tr>
 * </table>
 *
 * <pre>{@code
 * Security.addProvider(new PqSignProvider());
 * PublicKey pk = KeyFactory.getInstance("XMSSMT", "PQSign").generatePublic(new X509EncodedKeySpec(spki));
 * }</pre>
 */
public final class PqSignProvider extends Provider {
    private static final long serialVersionUID = 1L;

    /** The provider name, for {@code getInstance(algorithm, PqSignProvider.NAME)}. */
    public static final String NAME = "PQSign";

    /** Creates the provider; install it with {@code Security.addProvider(new PqSignProvider())}. */
    public PqSignProvider() {
        super(
                NAME,
                "0.1",
                "pqsign: XMSS / XMSS^MT (RFC 8391, RFC 9802), HSS / LMS (RFC 8554, RFC 9708) and HAETAE keys and signatures");
        String pkg = PqSignProvider.class.getPackageName() + ".";
        register("KeyFactory", "XMSS", pkg + "PqSignKeyFactorySpi$Xmss", oidAliases(Oids.ID_ALG_XMSS_HASHSIG.getId()));
        register(
                "KeyFactory",
                "XMSSMT",
                pkg + "PqSignKeyFactorySpi$XmssMt",
                oidAliases(Oids.ID_ALG_XMSSMT_HASHSIG.getId()));
        register("Signature", "XMSS", pkg + "PqSignSignatureSpi$Xmss", oidAliases(Oids.ID_ALG_XMSS_HASHSIG.getId()));
        register(
                "Signature",
                "XMSSMT",
                pkg + "PqSignSignatureSpi$XmssMt",
                oidAliases(Oids.ID_ALG_XMSSMT_HASHSIG.getId()));
        register(
                "KeyFactory",
                Algorithms.HSS_LMS,
                pkg + "PqSignKeyFactorySpi$HssLms",
                oidAliases(Oids.ID_ALG_HSS_LMS_HASHSIG.getId()));
        register(
                "Signature",
                Algorithms.HSS_LMS,
                pkg + "PqSignSignatureSpi$HssLms",
                oidAliases(Oids.ID_ALG_HSS_LMS_HASHSIG.getId()));
        register("KeyFactory", "HAETAE", pkg + "PqSignKeyFactorySpi$Haetae", List.of());
        register("Signature", "HAETAE", pkg + "PqSignSignatureSpi$Haetae", List.of());
        register("KeyPairGenerator", "HAETAE", pkg + "PqSignKeyPairGeneratorSpi$Haetae", List.of());
        for (HaetaeParameterSet p : HaetaeParameterSet.values()) {
            String suffix = "$Haetae" + p.setName().substring("HAETAE-".length());
            List<String> aliases = oidAliases(p.oid());
            register("KeyFactory", p.setName(), pkg + "PqSignKeyFactorySpi" + suffix, aliases);
            register("Signature", p.setName(), pkg + "PqSignSignatureSpi" + suffix, aliases);
            register("KeyPairGenerator", p.setName(), pkg + "PqSignKeyPairGeneratorSpi" + suffix, aliases);
        }
    }

    private static List<String> oidAliases(String oid) {
        return List.of(oid, "OID." + oid);
    }

    private void register(String type, String algorithm, String className, List<String> aliases) {
        putService(new Service(this, type, algorithm, className, aliases, null));
    }
}
