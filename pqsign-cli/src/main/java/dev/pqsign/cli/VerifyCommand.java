package dev.pqsign.cli;

import dev.pqsign.core.Verifier;
import dev.pqsign.haetae.HaetaeParameterSet;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code pqsign verify}: exit 0 valid, 1 invalid, 2 usage or unreadable input. */
@Command(name = "verify", description = "Verify a signature. Exit 0 valid, 1 invalid, 2 usage or unreadable input.")
final class VerifyCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--pub",
            required = true,
            description =
                    "Public key: RFC 8391 key file, raw root||PUB_SEED with --params, HSS key, HAETAE key, or certificate (PEM, with --trust).")
    Path pub;

    @Option(names = "--in", required = true, description = "Message file.")
    Path in;

    @Option(names = "--sig", required = true, description = "Signature file.")
    Path sig;

    @Option(
            names = "--params",
            description = "Parameter set (needed for raw root||PUB_SEED keys; for HSS, the hierarchy to accept).")
    String params;

    @Option(names = "--context", description = "HAETAE context string: text, or hex:HEX.")
    String context;

    @Option(
            names = "--trust",
            description =
                    "Trusted root certificate: required when --pub is a certificate, whose chain is verified first.")
    Path trust;

    @Override
    public Integer call() {
        byte[] signature = KeyFiles.readSmall(sig, "signature");
        Verifier v = KeyFiles.verifier(pub, params, signature, KeyFiles.context(context), trust);
        if (context != null && !(v.parameterSet() instanceof HaetaeParameterSet)) {
            throw CliException.usage(pub + ": --context applies only to HAETAE keys, this is "
                    + v.parameterSet().setName());
        }
        byte[] msg = KeyFiles.read(in, "message");
        boolean ok = v.verify(msg, signature);
        if (ok) {
            spec.commandLine().getOut().println("valid (" + v.parameterSet().setName() + ")");
            spec.commandLine().getOut().flush();
            return 0;
        }
        String why = signature.length != v.parameterSet().signatureBytes()
                ? " (signature is " + signature.length + " bytes, "
                        + v.parameterSet().setName() + " signatures are "
                        + v.parameterSet().signatureBytes() + ")"
                : "";
        spec.commandLine().getErr().println("invalid signature" + why);
        spec.commandLine().getErr().flush();
        return CliException.FAILED;
    }
}
