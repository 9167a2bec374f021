package dev.pqsign.cli;

import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaeSampler;
import dev.pqsign.haetae.internal.HaetaeKat;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pqsign kat HAETAE-2}: writes the NIST-format KAT response file to stdout. */
@Command(name = "kat", description = "Write the 100-record HAETAE KAT response file (.rsp) to stdout.")
final class KatCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

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
        // Through the command's writer: pqsign checks it after the command and fails on a write error
        // (a full disk, /dev/full), which a PrintStream on System.out would swallow.
        PrintWriter w = spec.commandLine().getOut();
        PrintStream out = new PrintStream(new WriterStream(w), false, StandardCharsets.US_ASCII);
        HaetaeKat.write(p, s, out);
        out.flush();
        return 0;
    }

    /** The KAT text is ASCII, so each byte is one character of the writer. */
    private static final class WriterStream extends OutputStream {
        private final Writer w;

        WriterStream(Writer w) {
            this.w = w;
        }

        @Override
        public void write(int b) throws IOException {
            w.write(b & 0xff);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            w.write(new String(b, off, len, StandardCharsets.ISO_8859_1));
        }

        @Override
        public void flush() throws IOException {
            w.flush();
        }
    }
}
