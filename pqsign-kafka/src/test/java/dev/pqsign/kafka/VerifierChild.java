package dev.pqsign.kafka;

import dev.pqsign.core.Hex;
import dev.pqsign.keys.PublicKeys;
import dev.pqsign.x509.PqPublicKey;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One verifier instance in its own JVM, for tests that kill it with SIGKILL. Arguments:
 * {@code BOOTSTRAP STATE_DIR APPLICATION_ID NAME=SET:PUBHEX...}. Prints {@code RUNNING} once it processes.
 */
public final class VerifierChild {
    private VerifierChild() {}

    public static void main(String[] args) throws Exception {
        Map<String, PqPublicKey> pinned = new LinkedHashMap<>();
        for (int i = 3; i < args.length; i++) {
            String[] nameRest = args[i].split("=", 2);
            String[] setHex = nameRest[1].split(":", 2);
            pinned.put(nameRest[0], PublicKeys.decode(setHex[0], Hex.decode(setHex[1])));
        }
        StreamVerifier v = StreamVerifier.start(
                SensorTrust.of(pinned), StreamVerifier.configuration(args[0], args[2], Path.of(args[1]), 1));
        while (!v.running()) {
            Thread.sleep(100);
        }
        System.out.println("RUNNING");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
