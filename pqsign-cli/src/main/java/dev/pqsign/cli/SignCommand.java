package dev.pqsign.cli;

import dev.pqsign.core.Secrets;
import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.haetae.HaetaePrivateKey;
import dev.pqsign.haetae.HaetaeSampler;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssStatefulSigner;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pqsign sign}: one signature per input file. For XMSS keys every signature first burns its
 * index durably in the key state; several {@code --in} files share one process (and one key load).
 */
@Command(name = "sign", description = "Sign files. XMSS: reserves each index durably before signing.")
final class SignCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--key", required = true, description = "Private key: DIR/key.state (XMSS) or DIR/key.sk (HAETAE).")
    Path key;

    @Option(names = "--in", required = true, arity = "1..*", description = "Message file(s).")
    List<Path> in;

    @Option(names = "--out", description = "Signature file (one --in only).")
    Path out;

    @Option(names = "--out-dir", description = "Directory for signatures of several --in files (NAME.sig each).")
    Path outDir;

    @Option(names = "--context", description = "HAETAE context string: text, or hex:HEX.")
    String context;

    @Option(names = "--engine", defaultValue = "fast", description = "HAETAE engine: fast or compact.")
    String engine;

    @Option(names = "--sampler", defaultValue = "v1.2.0", description = "HAETAE sampler: v1.2.0 (default) or v1.1.2.")
    String sampler;

    @Option(names = "--batch", defaultValue = "1", description = "XMSS: indices reserved per state write (default 1).")
    int batch;

    @Option(names = "--lock-timeout", defaultValue = "10", description = "Seconds to wait for another process holding the key (default 10).")
    int lockTimeout;

    @Override
    public Integer call() throws IOException {
        List<Path> outputs = outputs();
        byte[] head = KeyFiles.readSmall(key, "private key");
        PrintWriter o = spec.commandLine().getOut();
        if (XmssKeyState.hasMagic(head)) {
            Secrets.wipe(head);
            return signXmss(outputs, o);
        }
        if (HaetaeKeyFile.hasMagic(head)) {
            HaetaePrivateKey sk = HaetaeKeyFile.decode(head);
            Secrets.wipe(head);
            return signHaetae(sk, outputs, o);
        }
        Secrets.wipe(head);
        throw CliException.usage(key + " is not a pqsign private key (neither an XMSS key.state nor a HAETAE key.sk)");
    }

    private List<Path> outputs() {
        List<Path> outs = new ArrayList<>();
        if (out != null && outDir != null) {
            throw CliException.usage("give either --out or --out-dir, not both");
        }
        if (out != null) {
            if (in.size() != 1) {
                throw CliException.usage("--out takes one --in; use --out-dir for " + in.size() + " files");
            }
            outs.add(out);
        } else if (outDir != null) {
            for (Path p : in) {
                outs.add(outDir.resolve(p.getFileName() + ".sig"));
            }
        } else {
            throw CliException.usage("missing --out FILE (or --out-dir DIR)");
        }
        for (Path p : in) {
            if (!Files.isRegularFile(p)) {
                throw CliException.usage("message file " + p + " does not exist or is not a file");
            }
        }
        return outs;
    }

    private int signXmss(List<Path> outputs, PrintWriter o) throws IOException {
        if (outDir != null) {
            Files.createDirectories(outDir);
        }
        try (FileStateStore store = FileStateStore.open(key, Duration.ofSeconds(lockTimeout));
                XmssStatefulSigner signer = XmssStatefulSigner.open(store,
                        Options.defaults().withBatch(Math.max(1, batch)))) {
            for (int i = 0; i < in.size(); i++) {
                byte[] msg = KeyFiles.read(in.get(i), "message");
                long t0 = System.nanoTime();
                var s = signer.signIndexed(idx -> msg);
                double ms = (System.nanoTime() - t0) / 1e6;
                DurableFiles.writeAtomically(outputs.get(i), s.signature());
                o.printf("%s: index %d, %d bytes, %.2f ms -> %s%n", in.get(i), s.index(), s.signature().length, ms,
                        outputs.get(i));
            }
            o.printf("%s: %d signatures left%n", signer.parameterSet().setName(), signer.remaining());
        }
        o.flush();
        return 0;
    }

    private int signHaetae(HaetaePrivateKey sk, List<Path> outputs, PrintWriter o) throws IOException {
        HaetaeEngine e = switch (engine.toLowerCase(Locale.ROOT)) {
            case "fast" -> HaetaeEngine.FAST;
            case "compact" -> HaetaeEngine.COMPACT;
            default -> throw CliException.usage("--engine must be fast or compact, got '" + engine + "'");
        };
        HaetaeSampler smp = switch (sampler.toLowerCase(Locale.ROOT)) {
            case "v1.2.0", "1.2.0" -> HaetaeSampler.V1_2_0;
            case "v1.1.2", "1.1.2" -> HaetaeSampler.V1_1_2;
            default -> throw CliException.usage("--sampler must be v1.2.0 or v1.1.2, got '" + sampler + "'");
        };
        if (outDir != null) {
            Files.createDirectories(outDir);
        }
        HaetaeSigner signer;
        try {
            signer = new HaetaeSigner(sk, KeyFiles.context(context), smp, e, new SecureRandom());
        } catch (IllegalArgumentException ex) {
            throw CliException.usage(ex.getMessage());
        }
        try {
            for (int i = 0; i < in.size(); i++) {
                byte[] msg = KeyFiles.read(in.get(i), "message");
                long t0 = System.nanoTime();
                byte[] sig = signer.sign(msg);
                double ms = (System.nanoTime() - t0) / 1e6;
                DurableFiles.writeAtomically(outputs.get(i), sig);
                o.printf("%s: %d bytes, %.2f ms -> %s%n", in.get(i), sig.length, ms, outputs.get(i));
            }
        } finally {
            sk.destroy();
        }
        o.flush();
        return 0;
    }
}
