package dev.pqsign.cli;

import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaeSampler;
import dev.pqsign.haetae.internal.HaetaeKat;
import java.io.BufferedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pqsign kat HAETAE-2}: writes the NIST-format KAT response file to stdout. */
@Command(name = "kat", description = "Write the 100-record HAETAE KAT response file (.rsp) to stdout.")
final class KatCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "HAETAE-2, HAETAE-3 or HAETAE-5.")
    String set;

    @Option(names = "--sampler", defaultValue = "v1.2.0", description = "v1.2.0 (default) or v1.1.2.")
    String sampler;

    @Override
    public Integer call() {
        HaetaeParameterSet p;
        try {
            p = HaetaeParameterSet.fromName(set);
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        }
        HaetaeSampler s = switch (sampler.toLowerCase(Locale.ROOT)) {
            case "v1.2.0", "1.2.0" -> HaetaeSampler.V1_2_0;
            case "v1.1.2", "1.1.2" -> HaetaeSampler.V1_1_2;
            default -> throw CliException.usage("--sampler must be v1.2.0 or v1.1.2, got '" + sampler + "'");
        };
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out, 1 << 16), false, StandardCharsets.US_ASCII);
        HaetaeKat.write(p, s, out);
        out.flush();
        return out.checkError() ? CliException.USAGE : 0;
    }
}
