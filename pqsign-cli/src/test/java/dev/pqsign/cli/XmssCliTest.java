package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.Hex;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI contract for XMSS keys: names, files, exit codes and one-line errors. */
class XmssCliTest {
    @TempDir
    Path dir;

    private Path write(String name, String content) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    /**
     * Issue 31 (docs an independent verifier can trust): {@code inspect} prints the key id that
     * records, JSON Lines and the operator use, SHA-256 of the public key file's bytes (the
     * standard encoding), and the signer's state check identity under another name.
     */
    @Test
    void inspect_keyIdIsTheOneOperatorsUse_stateCheckNamedApart() throws Exception {
        Path key = dir.resolve("k");
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", key.toString())
                        .exit());
        String expected = Hex.encode(
                java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(key.resolve("key.pub"))));
        var r = CliRunner.run("inspect", key.resolve("key.state").toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("  key id:         " + expected + " "), r.out());
        String check = r.out()
                .lines()
                .filter(l -> l.startsWith("  state check:"))
                .findFirst()
                .orElseThrow();
        assertFalse(check.contains(expected), check);
        var op = CliRunner.run(
                "operator",
                "--url",
                "opc.tcp://127.0.0.1:1/pqsign",
                "--pub",
                key.resolve("key.pub").toString(),
                "--data-dir",
                dir.resolve("op").toString(),
                "--connect-timeout",
                "1");
        assertTrue(op.out().contains("key " + expected), "the operator names the same key id: " + op);
    }

    @Test
    void keygenSignVerifyInspect_roundTrip() throws Exception {
        Path key = dir.resolve("k");
        var r = CliRunner.run("keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", key.toString());
        assertEquals(0, r.exit(), r.toString());
        assertEquals(68, Files.size(key.resolve("key.pub")));
        assertEquals(172, Files.size(key.resolve("key.state")));
        Path msg = write("m.txt", "rpm=1500.25");
        Path sig = dir.resolve("m.sig");
        r = CliRunner.run(
                "sign", "--key", key.resolve("key.state").toString(), "--in", msg.toString(), "--out", sig.toString());
        assertEquals(0, r.exit(), r.toString());
        assertEquals(4642, Files.size(sig));
        r = CliRunner.run(
                "verify", "--pub", key.resolve("key.pub").toString(), "--in", msg.toString(), "--sig", sig.toString());
        assertEquals(0, r.exit(), r.toString());

        Files.writeString(msg, "rpm=1500.26");
        r = CliRunner.run(
                "verify", "--pub", key.resolve("key.pub").toString(), "--in", msg.toString(), "--sig", sig.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("invalid"), r.err());

        r = CliRunner.run("inspect", key.resolve("key.state").toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("XMSSMT-SHA2_10/2_256"), r.out());
        assertTrue(r.out().contains("next 1, end 1024"), r.out());
        assertTrue(r.out().contains("1023 signatures"), r.out());
        r = CliRunner.run("inspect", sig.toString());
        assertTrue(r.out().contains("index 0"), r.out());
    }

    @Test
    void keygenFromVectorSeed_reproducesReferencePublicKey_andRawKeyVerifies() throws Exception {
        // First vector of the reference implementation (XMSS-SHA2_10_256, seed bytes 0x00..0x5f).
        byte[] seed = new byte[96];
        for (int i = 0; i < seed.length; i++) {
            seed[i] = (byte) i;
        }
        Path key = dir.resolve("v");
        var r = CliRunner.run(
                "keygen", "--params", "XMSS-SHA2_10_256", "--out", key.toString(), "--seed", Hex.encode(seed));
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.err().contains("INSECURE"), r.err());
        assertEquals(
                "000000019d898033e37af48e6a116f8b15651cc26773467007ad19375d38c23c690c3483"
                        + "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f",
                Hex.encode(Files.readAllBytes(key.resolve("key.pub"))));

        Path msg = write("abc", "abc");
        Path sig = dir.resolve("abc.sig");
        assertEquals(
                0,
                CliRunner.run(
                                "sign",
                                "--key",
                                key.resolve("key.state").toString(),
                                "--in",
                                msg.toString(),
                                "--out",
                                sig.toString())
                        .exit());
        byte[] pub = Files.readAllBytes(key.resolve("key.pub"));
        Path raw = dir.resolve("raw.pub");
        Files.write(raw, java.util.Arrays.copyOfRange(pub, 4, pub.length));
        r = CliRunner.run(
                "verify",
                "--pub",
                raw.toString(),
                "--params",
                "XMSS-SHA2_10_256",
                "--in",
                msg.toString(),
                "--sig",
                sig.toString());
        assertEquals(0, r.exit(), r.toString());
        r = CliRunner.run("verify", "--pub", raw.toString(), "--in", msg.toString(), "--sig", sig.toString());
        assertEquals(2, r.exit(), "raw key without --params is a usage error: " + r);
    }

    @Test
    void signSeveralFiles_oneIndexEach() throws Exception {
        Path key = dir.resolve("k");
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_20/4_256", "--out", key.toString())
                        .exit());
        Path a = write("a.txt", "a");
        Path b = write("b.txt", "b");
        Path c = write("c.txt", "c");
        Path out = dir.resolve("sigs");
        var r = CliRunner.run(
                "sign",
                "--key",
                key.resolve("key.state").toString(),
                "--in",
                a.toString(),
                b.toString(),
                c.toString(),
                "--out-dir",
                out.toString());
        assertEquals(0, r.exit(), r.toString());
        for (String f : new String[] {"a.txt", "b.txt", "c.txt"}) {
            r = CliRunner.run(
                    "verify",
                    "--pub",
                    key.resolve("key.pub").toString(),
                    "--in",
                    dir.resolve(f).toString(),
                    "--sig",
                    out.resolve(f + ".sig").toString());
            assertEquals(0, r.exit(), r.toString());
        }
        assertArrayEquals(
                new byte[] {0, 0, 2},
                java.util.Arrays.copyOf(Files.readAllBytes(out.resolve("c.txt.sig")), 3),
                "third file got index 2");
    }

    @Test
    void exhaustedKey_clearErrorAndExit1() throws Exception {
        Path key = dir.resolve("k");
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", key.toString())
                        .exit());
        // Shrink the key's range to its last index through the library's split.
        Path state = key.resolve("key.state");
        KeyStates.keepOnlyLastIndex(state);
        Path m = write("m", "m");
        assertEquals(
                0,
                CliRunner.run(
                                "sign",
                                "--key",
                                state.toString(),
                                "--in",
                                m.toString(),
                                "--out",
                                dir.resolve("last.sig").toString())
                        .exit());
        var r = CliRunner.run(
                "verify",
                "--pub",
                key.resolve("key.pub").toString(),
                "--in",
                m.toString(),
                "--sig",
                dir.resolve("last.sig").toString());
        assertEquals(0, r.exit(), "signature at the very last index verifies: " + r);
        r = CliRunner.run(
                "sign",
                "--key",
                state.toString(),
                "--in",
                m.toString(),
                "--out",
                dir.resolve("none.sig").toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("exhausted"), r.err());
        assertFalse(Files.exists(dir.resolve("none.sig")));
    }

    @Test
    void badInputs_giveOneLineErrorsAndExit2() throws Exception {
        Path m = write("m", "m");
        var r = CliRunner.run(
                "verify", "--pub", dir.resolve("missing.pub").toString(), "--in", m.toString(), "--sig", m.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("missing.pub") && r.err().contains("does not exist"), r.err());

        Path junk = write("junk.state", "this is not a key");
        r = CliRunner.run(
                "sign",
                "--key",
                junk.toString(),
                "--in",
                m.toString(),
                "--out",
                dir.resolve("x").toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("not a pqsign private key"), r.err());

        Path key = dir.resolve("k");
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", key.toString())
                        .exit());
        byte[] st = Files.readAllBytes(key.resolve("key.state"));
        st[40] ^= 1;
        Path corrupt = dir.resolve("corrupt.state");
        Files.write(corrupt, st);
        r = CliRunner.run(
                "sign",
                "--key",
                corrupt.toString(),
                "--in",
                m.toString(),
                "--out",
                dir.resolve("y").toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("corrupt"), r.err());
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());

        r = CliRunner.run("keygen", "--params", "XMSS-NOPE", "--out", key.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("unknown parameter set"), r.err());

        r = CliRunner.run("keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", key.toString());
        assertEquals(2, r.exit(), "never overwrites a key: " + r);

        r = CliRunner.run(
                "keygen",
                "--params",
                "XMSS-SHA2_10_256",
                "--out",
                dir.resolve("s").toString(),
                "--seed",
                "abcd");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("3n = 96 bytes"), r.err());

        Path shortSig = dir.resolve("short.sig");
        Files.write(shortSig, new byte[100]);
        r = CliRunner.run(
                "verify",
                "--pub",
                key.resolve("key.pub").toString(),
                "--in",
                m.toString(),
                "--sig",
                shortSig.toString());
        assertEquals(1, r.exit(), "a truncated signature is invalid, not a crash: " + r);

        r = CliRunner.run("inspect", m.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("not a recognised"), r.err());
    }

    @Test
    void params_listsStudySetsAndRegisteredSets() {
        var r = CliRunner.run("params");
        assertEquals(0, r.exit());
        for (String name : new String[] {
            "XMSSMT-SHA2_10/2_256",
            "XMSSMT-SHA2_20/4_256",
            "XMSSMT-SHA2_30/6_256",
            "XMSS-SHA2_10_192",
            "XMSSMT-SHAKE256_60/12_192",
            "HAETAE-5"
        }) {
            assertTrue(r.out().contains(name), name);
        }
        assertTrue(r.out().contains("4642"));
        assertTrue(r.out().contains("13860"));
    }

    @Test
    void version_printsVersion() {
        var r = CliRunner.run("--version");
        assertEquals(0, r.exit());
        assertTrue(r.out().startsWith("pqsign "), r.out());
    }

    @Test
    void haetae_keygenSignVerifyWithContext() throws Exception {
        Path key = dir.resolve("h");
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "HAETAE-2", "--out", key.toString())
                        .exit());
        Path m = write("m", "reading");
        Path sig = dir.resolve("m.sig");
        var r = CliRunner.run(
                "sign",
                "--key",
                key.resolve("key.sk").toString(),
                "--in",
                m.toString(),
                "--out",
                sig.toString(),
                "--context",
                "line-7");
        assertEquals(0, r.exit(), r.toString());
        r = CliRunner.run(
                "verify",
                "--pub",
                key.resolve("key.pub").toString(),
                "--in",
                m.toString(),
                "--sig",
                sig.toString(),
                "--context",
                "line-7");
        assertEquals(0, r.exit(), r.toString());
        r = CliRunner.run(
                "verify",
                "--pub",
                key.resolve("key.pub").toString(),
                "--in",
                m.toString(),
                "--sig",
                sig.toString(),
                "--context",
                "line-8");
        assertEquals(1, r.exit(), "other context must not verify: " + r);
        r = CliRunner.run("inspect", key.resolve("key.sk").toString());
        assertTrue(r.out().contains("HAETAE-2"), r.out());
        assertFalse(r.out()
                .toLowerCase(Locale.ROOT)
                .contains(Hex.encode(Files.readAllBytes(key.resolve("key.sk"))).substring(60, 100)));
        String pub = new String(Files.readAllBytes(key.resolve("key.pub")), StandardCharsets.ISO_8859_1);
        assertFalse(pub.isEmpty());
    }
}
