package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.Digests;
import dev.pqsign.core.Hex;
import dev.pqsign.lms.HssParameterSet;
import java.nio.file.Files;
import java.nio.file.Path;
import org.bouncycastle.crypto.params.HSSPublicKeyParameters;
import org.bouncycastle.crypto.signers.HSSSigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI contract for LMS / HSS keys: keygen, sign, verify, inspect, split, params, certificates. */
class HssCliTest {
    static final String LMS_H10 = "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4";
    static final String LMS_H5 = "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4";
    static final String HSS_H5_H5 = LMS_H5 + "+" + LMS_H5;

    @TempDir
    Path dir;

    private Path keygen(String params, String name) {
        Path key = dir.resolve(name);
        var r = CliRunner.run("keygen", "--params", params, "--out", key.toString());
        assertEquals(0, r.exit(), r.toString());
        return key;
    }

    private CliRunner.Result sign(Path keyState, Path msg, Path sig) {
        return CliRunner.run("sign", "--key", keyState.toString(), "--in", msg.toString(), "--out", sig.toString());
    }

    private CliRunner.Result verify(Path pub, Path msg, Path sig, String... more) {
        String[] args = {"verify", "--pub", pub.toString(), "--in", msg.toString(), "--sig", sig.toString()};
        String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return CliRunner.run(all);
    }

    private static boolean bouncyCastleVerifies(Path pub, Path msg, Path sig) throws Exception {
        HSSSigner v = new HSSSigner();
        v.init(false, HSSPublicKeyParameters.getInstance(Files.readAllBytes(pub)));
        return v.verifySignature(Files.readAllBytes(msg), Files.readAllBytes(sig));
    }

    @Test
    void lmsKey_keygenSignVerifyInspect_roundTripAndBouncyCastleVerifies() throws Exception {
        Path key = keygen(LMS_H10, "lms");
        Path pub = key.resolve("key.pub");
        Path state = key.resolve("key.state");
        assertEquals(60, Files.size(pub));
        assertEquals(128, Files.size(state));
        Path msg = Files.writeString(dir.resolve("m.txt"), "rpm=1500.25");
        Path sig = dir.resolve("m.sig");
        var r = sign(state, msg, sig);
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("index 0"), r.out());
        assertEquals(HssParameterSet.byName(LMS_H10).orElseThrow().signatureBytes(), Files.size(sig));

        r = verify(pub, msg, sig);
        assertEquals(0, r.exit(), r.toString());
        assertEquals("valid (" + LMS_H10 + ")", r.out().strip());
        assertTrue(bouncyCastleVerifies(pub, msg, sig));

        Path other = Files.writeString(dir.resolve("other.txt"), "rpm=1500.26");
        r = verify(pub, other, sig);
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("invalid signature"), r.err());
        assertFalse(bouncyCastleVerifies(pub, other, sig));

        r = CliRunner.run("inspect", state.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("LMS/HSS key state"), r.out());
        assertTrue(r.out().contains("next 1, end 1024"), r.out());
        assertTrue(r.out().contains("remaining:      1023 signatures"), r.out());
        String keyId = Hex.encode(Digests.sha256().digest(Files.readAllBytes(pub)));
        assertTrue(r.out().contains("key id:         " + keyId), r.out());
        assertFalse(r.out().toLowerCase(java.util.Locale.ROOT).contains("seed"), r.out());

        r = CliRunner.run("inspect", sig.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("HSS signature"), r.out());
        assertTrue(r.out().contains("index:          0"), r.out());
        r = CliRunner.run("inspect", pub.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("HSS public key"), r.out());
        assertTrue(r.out().contains(keyId), r.out());
    }

    @Test
    void twoLevelKey_signVerifySplit_partsSignDisjointIndices() throws Exception {
        Path key = keygen(HSS_H5_H5, "hss");
        Path pub = key.resolve("key.pub");
        Path state = key.resolve("key.state");
        Path msg = Files.writeString(dir.resolve("m.txt"), "temperature=21.5");
        Path sig = dir.resolve("m.sig");
        assertEquals(0, sign(state, msg, sig).exit());
        var r = verify(pub, msg, sig);
        assertEquals(0, r.exit(), r.toString());
        assertEquals("valid (" + HSS_H5_H5 + ")", r.out().strip());
        assertEquals(0, verify(pub, msg, sig, "--params", HSS_H5_H5).exit());
        // The key names only its top tree: a hierarchy with another bottom tree is not this key's.
        r = verify(pub, msg, sig, "--params", LMS_H5 + "+LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8");
        assertEquals(1, r.exit(), r.toString());
        assertTrue(bouncyCastleVerifies(pub, msg, sig));

        Path parts = dir.resolve("parts");
        r = CliRunner.run("key", "split", "--key", state.toString(), "--parts", "2", "--out", parts.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("part 1: indices [1, 513)"), r.out());
        assertTrue(r.out().contains("part 2: indices [513, 1024)"), r.out());
        assertEquals(-1, Files.mismatch(pub, parts.resolve("key.pub")));

        Path sig2 = dir.resolve("m2.sig");
        r = sign(parts.resolve("part-2.state"), msg, sig2);
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("index 513"), r.out());
        assertEquals(0, verify(pub, msg, sig2).exit());
        assertTrue(bouncyCastleVerifies(pub, msg, sig2));
        r = CliRunner.run("inspect", key.toString() + "/key.state");
        assertTrue(r.out().contains("next 1, end 513"), r.out());
    }

    @Test
    void exhaustedKey_signRefusedWithExit1_andSplitRefused() throws Exception {
        Path key = keygen(LMS_H5, "small");
        Path state = key.resolve("key.state");
        Path msg = Files.writeString(dir.resolve("m.txt"), "x");
        assertEquals(0, sign(state, msg, dir.resolve("0.sig")).exit());
        Path parts = dir.resolve("parts");
        // 31 signatures left: 31 parts of one signature each.
        var r = CliRunner.run("key", "split", "--key", state.toString(), "--parts", "31", "--out", parts.toString());
        assertEquals(0, r.exit(), r.toString());
        Path part = parts.resolve("part-31.state");
        r = sign(part, msg, dir.resolve("last.sig"));
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("index 31"), r.out());
        assertEquals(
                0, verify(key.resolve("key.pub"), msg, dir.resolve("last.sig")).exit());

        r = sign(part, msg, dir.resolve("again.sig"));
        assertEquals(1, r.exit(), r.toString());
        assertFalse(Files.exists(dir.resolve("again.sig")));
        assertEquals(1, r.err().strip().lines().count(), r.err());
        r = CliRunner.run(
                "key",
                "split",
                "--key",
                part.toString(),
                "--parts",
                "2",
                "--out",
                dir.resolve("p2").toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("exhausted"), r.err());
    }

    @Test
    void keygen_unsignableOrUnknownHierarchy_refusedWithOneLine() {
        var r = CliRunner.run(
                "keygen",
                "--params",
                LMS_H5 + "+LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W4",
                "--out",
                dir.resolve("mixed").toString());
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("one hash function"), r.err());
        assertFalse(Files.exists(dir.resolve("mixed")));
        r = CliRunner.run("keygen", "--params", "LMS_SHA256_M32_H11/LMOTS_SHA256_N32_W4", "--out", "x");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("unknown parameter set"), r.err());
    }

    @Test
    void params_listsLmsTreesAndTheHssNotation() {
        var r = CliRunner.run("params");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains(LMS_H10), r.out());
        assertTrue(r.out().contains("LMS_SHAKE_M24_H25/LMOTS_SHAKE_N24_W8"), r.out());
        assertTrue(r.out().contains("HSS: join 1 to 8 trees"), r.out());
    }

    @Test
    void certSelfSigned_withHssKey_verifiesAgainstItself() throws Exception {
        Path key = keygen(HSS_H5_H5, "ca");
        Path pem = dir.resolve("ca.pem");
        var r = CliRunner.run(
                "cert",
                "self-signed",
                "--key",
                key.resolve("key.state").toString(),
                "--subject",
                "CN=HSS root",
                "--out",
                pem.toString());
        assertEquals(0, r.exit(), r.toString());
        r = CliRunner.run("cert", "verify", "--cert", pem.toString(), "--trust", pem.toString());
        assertEquals(0, r.exit(), r.toString());
        r = CliRunner.run("inspect", pem.toString());
        assertEquals(0, r.exit(), r.toString());
    }
}
