package dev.pqsign.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssPublicKey;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SensorKeyDirectoryTest {
    @TempDir
    Path tmp;

    @Test
    void open_typeCodeSharedByXmssAndXmssMt_takesTheSetFromTheKeyState() throws Exception {
        XmssParameterSet set = XmssParameterSet.XMSSMT_SHA2_20_4_256;
        XmssPrivateKey key = XmssKeyGenerator.generate(set);
        PqPublicKey pub = PqPublicKey.of(key.publicKey());
        assertTrue(XmssPublicKey.candidates(pub.rawEncoding()).size() > 1, "the test needs a shared type code");
        Path dir = tmp.resolve("k");
        SensorKeyDirectory.create(dir, key);
        key.destroy();
        try (SensorKeyDirectory d = SensorKeyDirectory.open(dir, SensorKeyDirectory.Options.defaults())) {
            assertEquals(pub, d.currentKey());
            assertEquals(set, d.currentSigner().parameterSet());
        }
        assertEquals(set.setName(), SensorKeyDirectory.inspect(dir).parameterSet());
    }
}
