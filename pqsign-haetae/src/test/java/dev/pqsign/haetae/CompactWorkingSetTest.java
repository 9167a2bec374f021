package dev.pqsign.haetae;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.GraphLayout;

/**
 * The compact engine's working set: bytes retained by each per-operation context (JOL's deep size),
 * measured after the context was used for every parameter set, against the low-memory study's targets.
 */
class CompactWorkingSetTest {
    static final long KEYGEN_TARGET = 5800;
    static final long SIGN_TARGET = 6200;
    static final long VERIFY_TARGET = 4900;

    @Test
    void compactContexts_stayWithinTheStudyTargets() {
        byte[] msg = {1, 2, 3};
        for (HaetaeParameterSet p : HaetaeParameterSet.values()) {
            HaetaeKeyPair kp = HaetaeKeyPairGenerator.fromSeed(p, new byte[32], HaetaeEngine.COMPACT);
            byte[] sig = new HaetaeSigner(
                            kp.privateKey(),
                            new byte[0],
                            HaetaeSampler.V1_2_0,
                            HaetaeEngine.COMPACT,
                            new FixedRandom(new byte[32]))
                    .sign(msg);
            assertTrue(new HaetaeVerifier(kp.publicKey(), new byte[0], HaetaeEngine.COMPACT).verify(msg, sig));
        }
        long keygen = GraphLayout.parseInstance(CompactEngine.forThread(CompactEngine.Op.KEYGEN))
                .totalSize();
        long sign = GraphLayout.parseInstance(CompactEngine.forThread(CompactEngine.Op.SIGN))
                .totalSize();
        long verify = GraphLayout.parseInstance(CompactEngine.forThread(CompactEngine.Op.VERIFY))
                .totalSize();
        System.out.printf(
                "HAETAE compact working set (JOL totalSize): keygen %d B, sign %d B, verify %d B%n",
                keygen, sign, verify);
        long fast = GraphLayout.parseInstance(HaetaeContext.forThread(HaetaeParameterSet.HAETAE_5))
                .totalSize();
        System.out.printf("HAETAE fast context for HAETAE-5 (for comparison): %d B%n", fast);
        assertTrue(keygen <= KEYGEN_TARGET, "keygen " + keygen + " B > " + KEYGEN_TARGET);
        assertTrue(sign <= SIGN_TARGET, "sign " + sign + " B > " + SIGN_TARGET);
        assertTrue(verify <= VERIFY_TARGET, "verify " + verify + " B > " + VERIFY_TARGET);
    }
}
