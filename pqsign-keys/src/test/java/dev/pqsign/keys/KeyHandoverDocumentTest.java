package dev.pqsign.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.Digests;
import dev.pqsign.core.Hex;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.WotsDerivation;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worked example of docs/formats/key-handover.md must be exactly what the code produces. */
class KeyHandoverDocumentTest {
    static final Path DOC = Path.of("..", "docs", "formats", "key-handover.md");

    static XmssPrivateKey seeded(int first) {
        byte[] seed = new byte[96];
        for (int i = 0; i < seed.length; i++) {
            seed[i] = (byte) (first + i);
        }
        return XmssKeyGenerator.fromSeed(TestKeys.SET, WotsDerivation.SP800_208, seed, 1, x -> {});
    }

    static String documented(String text, String marker) {
        int start = text.indexOf("<!-- " + marker + " -->");
        int end = text.indexOf("<!-- /" + marker + " -->");
        assertTrue(start >= 0 && end > start, "document lacks the " + marker + " markers");
        return text.substring(start + marker.length() + 9, end).replaceAll("[^0-9a-f]", "");
    }

    @Test
    void workedExample_matchesDocument(@TempDir Path dir) throws Exception {
        XmssPrivateKey oldKey = seeded(0x00);
        XmssPrivateKey newKey = seeded(0x60);
        PqPublicKey oldPub = PqPublicKey.of(oldKey.publicKey());
        PqPublicKey newPub = PqPublicKey.of(newKey.publicKey());
        try (FileStateStore store = FileStateStore.create(
                        dir.resolve("old.state"),
                        XmssKeyState.fresh(oldKey).encode(),
                        FileStateStore.DEFAULT_LOCK_TIMEOUT);
                XmssStatefulSigner signer = XmssStatefulSigner.open(store)) {
            SignedKeyHandover h = SignedKeyHandover.sign(
                    signer, oldPub, PublicKeys.keyId(oldPub), 1, newPub, Instant.parse("2026-12-01T12:00:00Z"));
            String statement = Hex.encode(h.statementBytes());
            byte[] record = h.encode();
            String recordHash = Hex.encode(Digests.sha256().digest(record));
            System.out.println("statement " + statement);
            System.out.println("oldkey " + Hex.encode(oldPub.rawEncoding()));
            System.out.println("record " + record.length + " bytes, SHA-256 " + recordHash);
            String text = Files.readString(DOC);
            assertEquals(statement, documented(text, "statement-hex"));
            assertEquals(Hex.encode(oldPub.rawEncoding()), documented(text, "old-key-hex"));
            assertEquals(recordHash, documented(text, "record-sha256"));
            assertTrue(text.contains("(" + record.length + " bytes)"), "document states the record length");
            // The whole example as a machine-readable vector, so a verifier can test its handover
            // check (section 3) from the docs alone.
            String vector = "# pqsign key handover test vector: docs/formats/key-handover.md, section 5\n"
                    + "# hex, one field per line; the record's signature verifies under old_public_key\n"
                    + "old_public_key=" + Hex.encode(oldPub.rawEncoding()) + "\n"
                    + "new_public_key=" + Hex.encode(newPub.rawEncoding()) + "\n"
                    + "statement=" + statement + "\n"
                    + "signature=" + Hex.encode(h.signature()) + "\n"
                    + "record=" + Hex.encode(record) + "\n";
            Path file = DOC.resolveSibling("vectors").resolve("key-handover-example.txt");
            assertTrue(Files.isRegularFile(file), "missing " + file);
            assertTrue(
                    vector.equals(Files.readString(file)),
                    () -> file + " differs from what the code produces; expected:\n" + vector);
        } finally {
            oldKey.destroy();
            newKey.destroy();
        }
    }
}
