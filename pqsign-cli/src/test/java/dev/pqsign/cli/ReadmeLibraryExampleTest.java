package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.state.FileStateStore;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import dev.pqsign.xmss.XmssVerifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * README.md's library example compiles and runs: its statements stand verbatim between the markers
 * below, and a test fails if the README's block and this copy drift apart.
 */
class ReadmeLibraryExampleTest {
    private static final Path README = Path.of("..", "README.md");
    private static final Path SELF =
            Path.of("src", "test", "java", "dev", "pqsign", "cli", "ReadmeLibraryExampleTest.java");

    @Test
    void example_runs_signatureVerifies() throws Exception {
        Path state = Path.of("key.state"); // where the README's example puts it (the module directory here)
        Files.deleteIfExists(state);
        Files.deleteIfExists(Path.of("key.state.lock"));
        boolean verified;
        try {
            // README example begin
            XmssPrivateKey key = XmssKeyGenerator.generate(XmssParameterSet.XMSSMT_SHA2_20_4_256);
            try (FileStateStore store = FileStateStore.create(
                            Path.of("key.state"),
                            XmssKeyState.fresh(key).encode(),
                            FileStateStore.DEFAULT_LOCK_TIMEOUT);
                    XmssStatefulSigner signer = XmssStatefulSigner.open(store)) { // rebuilds caches from the seeds
                byte[] sig = signer.sign("rpm=1500.2".getBytes(StandardCharsets.UTF_8)); // index burned on disk first
                boolean ok =
                        new XmssVerifier(signer.publicKey()).verify("rpm=1500.2".getBytes(StandardCharsets.UTF_8), sig);
                // README example end
                verified = ok;
            }
        } finally {
            Files.deleteIfExists(state);
            Files.deleteIfExists(Path.of("key.state.lock"));
        }
        assertTrue(verified);
    }

    @Test
    void readmeBlock_matchesThisTest() throws Exception {
        String readme = Files.readString(README);
        int start = readme.indexOf("```java", readme.indexOf("## Library example"));
        String block = readme.substring(start + "```java".length(), readme.indexOf("```", start + 7));
        String self = Files.readString(SELF);
        String copy = self.substring(
                self.indexOf("// README example begin") + "// README example begin".length(),
                self.indexOf("// README example end"));
        String readmeStatements =
                normalize(block.lines().filter(l -> !l.startsWith("import ")).reduce("", (a, b) -> a + b + "\n"));
        // The README closes the try block; the test closes it after the marker.
        assertTrue(
                readmeStatements.startsWith(normalize(copy)) && readmeStatements.endsWith("}"),
                "README's library example and this test's copy differ:\nREADME: " + readmeStatements + "\ntest:   "
                        + normalize(copy));
    }

    private static String normalize(String s) {
        // Whitespace differs (the formatter wraps the test's copy); the tokens and comments must not.
        return s.replaceAll("\\s+", "");
    }
}
