package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A plant PKI made with the CLI for tests: a root in {@code root/} + {@code root.pem}, device CAs under it. */
final class CliPki {
    private final Path dir;

    private CliPki(Path dir) {
        this.dir = dir;
    }

    /** Makes the root: an XMSSMT-SHA2_40/8_256 key (quick to generate) and its self-signed certificate. */
    static CliPki create(Path dir, int days) {
        CliPki pki = new CliPki(dir);
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_40/8_256", "--out", pki.p("root"))
                        .exit());
        CliRunner.Result r = CliRunner.run(
                "cert",
                "self-signed",
                "--key",
                pki.p("root/key.state"),
                "--subject",
                "CN=Plant Root,O=Test",
                "--days",
                Integer.toString(days),
                "--out",
                pki.p("root.pem"));
        assertEquals(0, r.exit(), r.toString());
        return pki;
    }

    /** Runs {@code pqsign cert device-ca} under the root into {@code out}, with {@code extra} options. */
    CliRunner.Result deviceCa(String out, String subject, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "cert",
                "device-ca",
                "--ca-key",
                p("root/key.state"),
                "--ca-cert",
                p("root.pem"),
                "--subject",
                subject,
                "--out",
                p(out)));
        args.addAll(List.of(extra));
        return CliRunner.run(args.toArray(String[]::new));
    }

    String p(String name) {
        return dir.resolve(name).toString();
    }
}
