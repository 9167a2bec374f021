package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.xmss.XmssKeyState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The message rules (issue 16, item 7): one line {@code pqsign: FILE: what is wrong}, usage errors
 * included; no Java class names; {@code --help} exits 0 everywhere; options of the other scheme are
 * refused rather than ignored.
 */
class MessagesCliTest {
    @TempDir
    Path dir;

    private static void assertOneLine(CliRunner.Result r) {
        assertEquals(1, r.err().lines().count(), "one line: " + r.err());
        assertTrue(r.err().startsWith("pqsign: "), r.err());
        assertFalse(OutputSafetyCliTest.CLASS_NAME.matcher(r.err()).find(), "no Java class names: " + r.err());
    }

    private static void commandPaths(CommandLine cl, List<String> prefix, List<List<String>> out) {
        for (var e : cl.getSubcommands().entrySet()) {
            if (e.getKey().equals("help")) {
                continue;
            }
            List<String> path = new ArrayList<>(prefix);
            path.add(e.getKey());
            out.add(path);
            commandPaths(e.getValue(), path, out);
        }
    }

    @Test
    void help_onEveryCommand_exit0() {
        List<List<String>> paths = new ArrayList<>();
        paths.add(List.of());
        commandPaths(PqsignCli.commandLine(), List.of(), paths);
        assertTrue(paths.size() > 12, paths.toString());
        for (List<String> path : paths) {
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            var r = CliRunner.run(args.toArray(String[]::new));
            assertEquals(0, r.exit(), args + ": " + r);
            assertTrue(r.out().startsWith("Usage: pqsign"), args + ": " + r.out());
        }
    }

    @Test
    void usageErrors_oneLineWithHelpHint_exit2() {
        String[][] calls = {
            {},
            {"nosuchcommand"},
            {"sign"},
            {"sign", "--key"},
            {"sign", "--nosuchoption"},
            {"sign", "--key", "k", "--in", "m", "--out", "s", "--batch", "many"},
            {"verify", "--pub", "p"},
            {"keygen"},
            {"cert"},
            {"cert", "issue"},
            {"key"},
            {"key", "split", "--parts", "x"},
            {"inspect"},
            {"kat"},
        };
        for (String[] c : calls) {
            var r = CliRunner.run(c);
            assertEquals(2, r.exit(), String.join(" ", c) + ": " + r);
            assertOneLine(r);
            assertTrue(r.err().contains("--help"), r.err());
            assertEquals("", r.out(), "usage goes nowhere on an error: " + r.out());
        }
    }

    @Test
    void haetaeKeyErrors_nameTheFile() throws Exception {
        Path h = dir.resolve("h");
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "HAETAE-2", "--out", h.toString())
                        .exit());
        byte[] sk = Files.readAllBytes(h.resolve("key.sk"));
        sk[100] ^= 1;
        Path bad = Files.write(dir.resolve("bad.sk"), sk);
        Path m = Files.writeString(dir.resolve("m"), "m");
        var r = CliRunner.run(
                "sign",
                "--key",
                bad.toString(),
                "--in",
                m.toString(),
                "--out",
                dir.resolve("m.sig").toString());
        assertEquals(2, r.exit(), r.toString());
        assertOneLine(r);
        assertTrue(r.err().startsWith("pqsign: " + bad + ": ") && r.err().contains("corrupt"), r.err());
        r = CliRunner.run(
                "cert",
                "self-signed",
                "--key",
                bad.toString(),
                "--subject",
                "CN=x",
                "--out",
                dir.resolve("x.pem").toString());
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().startsWith("pqsign: " + bad + ": "), r.err());
    }

    @Test
    void xmssSign_haetaeOnlyOptions_refusedNoIndexBurned() throws Exception {
        Path k = dir.resolve("k");
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", k.toString())
                        .exit());
        Path m = Files.writeString(dir.resolve("m"), "m");
        for (String[] opt : new String[][] {
            {"--context", "line-7"}, {"--engine", "compact"}, {"--engine", "fast"}, {"--sampler", "v1.1.2"}
        }) {
            var r = CliRunner.run(
                    "sign",
                    "--key",
                    k.resolve("key.state").toString(),
                    "--in",
                    m.toString(),
                    "--out",
                    dir.resolve("m.sig").toString(),
                    opt[0],
                    opt[1]);
            assertEquals(2, r.exit(), opt[0] + ": " + r);
            assertOneLine(r);
            assertTrue(r.err().contains(opt[0] + " does not apply to an XMSS key"), r.err());
        }
        assertEquals(
                0,
                XmssKeyState.decode(Files.readAllBytes(k.resolve("key.state"))).nextIndex());

        Path h = dir.resolve("h");
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "HAETAE-2", "--out", h.toString())
                        .exit());
        var r = CliRunner.run(
                "sign",
                "--key",
                h.resolve("key.sk").toString(),
                "--in",
                m.toString(),
                "--out",
                dir.resolve("h.sig").toString(),
                "--batch",
                "4");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("--batch does not apply to a HAETAE key"), r.err());
    }

    @Test
    void ioErrors_noJavaClassNames() throws Exception {
        Path m = Files.writeString(dir.resolve("m"), "m");
        Path locked = Files.createDirectory(dir.resolve("locked"));
        // A directory where the key's lock file would go: opening the key fails with an I/O error.
        Path k = dir.resolve("k");
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", k.toString())
                        .exit());
        Files.delete(k.resolve("key.state.lock"));
        Files.createDirectory(k.resolve("key.state.lock"));
        var r = CliRunner.run(
                "sign",
                "--key",
                k.resolve("key.state").toString(),
                "--in",
                m.toString(),
                "--out",
                locked.resolve("m.sig").toString());
        assertEquals(1, r.exit(), r.toString());
        assertOneLine(r);
    }

    /**
     * Issue 31, item 9: bytes that are not UTF-8 in an operator's JSON Lines are a rejected line
     * named by its number, not "Input length = 1" for the whole file; a 50 MB line is refused as too
     * long, not as "not a JSON object".
     */
    @Test
    void audit_invalidUtf8AndHugeLine_rejectedByLineWithTheReason() throws Exception {
        Path k = dir.resolve("k");
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", k.toString())
                        .exit());
        Path jsonl = dir.resolve("v.jsonl");
        try (var out = Files.newOutputStream(jsonl)) {
            out.write("{}\n{\"verdict\":\"ACCEPTED\",\"reading\":\"".getBytes(StandardCharsets.US_ASCII));
            out.write(new byte[] {(byte) 0xff, '"', '}', '\n', '{', '"', 'x', '"', ':', '"'});
            byte[] chunk = new byte[1 << 20];
            Arrays.fill(chunk, (byte) 'x');
            for (int i = 0; i < 50; i++) {
                out.write(chunk);
            }
            out.write("\"}\n".getBytes(StandardCharsets.US_ASCII));
        }
        var r = CliRunner.run("audit", "--pub", k.resolve("key.pub").toString(), "--jsonl", jsonl.toString());
        assertEquals(1, r.exit(), r.toString());
        assertEquals("", r.err(), r.toString());
        assertTrue(r.out().contains("3 lines, 0 readings verified, 0 duplicates, 3 rejected"), r.out());
        assertTrue(r.out().contains("  line 1: neither an event nor a verdict line"), r.out());
        assertTrue(r.out().contains("  line 2, column 34: not valid UTF-8 (byte 0xff)"), r.out());
        assertTrue(r.out().contains("  line 3: longer than 1048576 bytes; not read"), r.out());
    }

    @Test
    void oneLine_dropsLibraryExceptionClassPrefixesAndLineBreaks() {
        assertEquals(
                "sensor server failed to start on 127.0.0.1:4840: status=Bad_ConfigurationError, message=No"
                        + " endpoints bound; second line",
                PqsignCli.oneLine("sensor server failed to start on 127.0.0.1:4840: "
                        + "UaException: status=Bad_ConfigurationError, message=No endpoints bound\n  second line"));
        assertEquals("k: Is a directory", PqsignCli.oneLine("k: java.nio.file.FileSystemException: Is a directory"));
    }
}
