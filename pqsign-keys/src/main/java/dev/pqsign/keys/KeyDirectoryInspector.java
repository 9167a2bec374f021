package dev.pqsign.keys;

import static dev.pqsign.keys.SensorKeyDirectory.STATE;

import dev.pqsign.core.Secrets;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Reads what {@code pqsign inspect DIR} shows of a key directory: read-only, without its lock,
 * so a running sensor may change the directory meanwhile (the scan's order keeps every generation
 * findable, see {@link Generations#scan}).
 */
final class KeyDirectoryInspector {
    private KeyDirectoryInspector() {}

    /** See {@link SensorKeyDirectory#inspect}. */
    static SensorKeyDirectory.Inspection inspect(Path dir) throws IOException {
        PqPublicKey first = Generations.readFirstKey(dir);
        Generations found = Generations.scan(dir, first);
        long g = found.current();
        Path state = g == 0 ? dir.resolve(STATE) : found.dirs().get(g).resolve(STATE);
        byte[] stateBytes = KeyDirectoryLayout.readSmall(state);
        long remaining;
        try {
            XmssKeyState s = XmssKeyState.decode(stateBytes);
            remaining = s.remaining();
            s.key().destroy();
        } finally {
            Secrets.wipe(stateBytes);
        }
        Path next = found.dirs().get(g + 1);
        boolean ready = next != null && Files.isRegularFile(next.resolve(STATE), LinkOption.NOFOLLOW_LINKS);
        return new SensorKeyDirectory.Inspection(
                found.key().parameterSet().setName(),
                PublicKeys.keyId(first),
                g,
                PublicKeys.keyId(found.key()),
                remaining,
                ready,
                g,
                Math.min(found.compacted(), g));
    }
}
