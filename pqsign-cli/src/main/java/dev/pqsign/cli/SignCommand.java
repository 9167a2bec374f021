package dev.pqsign.cli;

import dev.pqsign.core.StatefulSigner;
import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.haetae.HaetaePrivateKey;
import dev.pqsign.haetae.HaetaeSampler;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.keys.KeyDirectoryOwner;
import dev.pqsign.keys.OpenedPrivateKey;
import dev.pqsign.keys.PrivateKeyFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pqsign sign}: one signature per input file. For stateful keys (XMSS / XMSS^MT, LMS / HSS)
 * every signature first burns its index durably in the key state; several {@code --in} files share
 * one process (and one key load).
 */
@Command(name = "sign", description = "Sign files. XMSS and HSS: reserves each index durably before signing.")
final class SignCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--key",
            required = true,
            description = "Private key: DIR/key.state (XMSS, HSS) or DIR/key.sk (HAETAE).")
    Path key;

    @Option(names = "--in", required = true, arity = "1..*", description = "Message file(s).")
    List<Path> in;

    @Option(names = "--out", description = "Signature file (one --in only).")
    Path out;

    @Option(names = "--out-dir", description = "Directory for signatures of several --in files (NAME.sig each).")
    Path outDir;

    @Option(names = "--context", description = "HAETAE only: context string, text or hex:HEX.")
    String context;

    @Option(names = "--engine", description = "HAETAE only: engine fast (default) or compact.")
    String engine;

    @Option(names = "--sampler", description = "HAETAE only: sampler v1.2.0 (default) or v1.1.2.")
    String sampler;

    @Option(
            names = "--batch",
            description = "XMSS and HSS: indices reserved per state write (1 .. " + MAX_BATCH + ", default 1).")
    Integer batch;

    @Option(
            names = "--lock-timeout",
            description = "XMSS and HSS: seconds to wait for another process holding the key (0 .. "
                    + Bounds.MAX_LOCK_TIMEOUT + ", default 10).")
    Integer lockTimeout;

    /** More indices per state write than this gains no speed and only risks more lost indices. */
    static final int MAX_BATCH = 1 << 16;

    @Override
    public Integer call() {
        boolean several = in.size() > 1;
        if (out != null && outDir != null) {
            throw CliException.usage("give either --out or --out-dir, not both");
        }
        if (out == null && outDir == null) {
            throw CliException.usage("missing --out FILE (or --out-dir DIR)");
        }
        if (out != null && several) {
            throw CliException.usage("--out takes one --in; use --out-dir for " + in.size() + " files");
        }
        if (out != null && OutputFiles.isStdout(out)) {
            throw CliException.usage("--out -: a signature is binary; give a file name");
        }
        for (Path p : in) {
            KeyFiles.requireRegularFile(p, "message");
        }
        Optional<PrivateKeyFormat> format = KeyFiles.privateKeyFormat(key, "private key");
        if (format.isEmpty()) {
            throw CliException.usage(
                    key + ": not a pqsign private key (not an XMSS or HSS key.state, nor a HAETAE key.sk)");
        }
        if (format.get().isKeyState()) {
            String what = format.get() == PrivateKeyFormat.HSS_KEY_STATE ? "an HSS key" : "an XMSS key";
            refuseOptions(what, "--context", "--engine", "--sampler");
            int b = batch == null ? 1 : Bounds.check("--batch", batch, 1, MAX_BATCH);
            int timeout = lockTimeout == null ? 10 : Bounds.lockTimeout(lockTimeout);
            List<Path> outputs = prepareOutputs();
            return signStateful(b, timeout, outputs, spec.commandLine().getOut());
        }
        refuseOptions("a HAETAE key (stateless)", "--batch", "--lock-timeout");
        HaetaeEngine e = engine(engine);
        HaetaeSampler smp = sampler(sampler);
        byte[] ctx = KeyFiles.context(context);
        try (OpenedPrivateKey opened = KeyFiles.openHaetaeKey(key, "private key")) {
            return signHaetae(
                    opened.haetaeKey().orElseThrow(),
                    e,
                    smp,
                    ctx,
                    prepareOutputs(),
                    spec.commandLine().getOut());
        }
    }

    private void refuseOptions(String what, String... names) {
        for (String n : names) {
            if (spec.commandLine().getParseResult().hasMatchedOption(n)) {
                throw CliException.usage(key + ": " + n + " does not apply to " + what);
            }
        }
    }

    static HaetaeEngine engine(String name) {
        if (name == null) {
            return HaetaeEngine.FAST;
        }
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "fast" -> HaetaeEngine.FAST;
            case "compact" -> HaetaeEngine.COMPACT;
            default -> throw CliException.usage("--engine must be fast or compact, got '" + name + "'");
        };
    }

    static HaetaeSampler sampler(String name) {
        if (name == null) {
            return HaetaeSampler.V1_2_0;
        }
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "v1.2.0", "1.2.0" -> HaetaeSampler.V1_2_0;
            case "v1.1.2", "1.1.2" -> HaetaeSampler.V1_1_2;
            default -> throw CliException.usage("--sampler must be v1.2.0 or v1.1.2, got '" + name + "'");
        };
    }

    /**
     * The signature files, checked before any index is burned: not inputs or key files, no link or
     * special file, no two the same, and the directory takes new files. Creates {@code --out-dir}
     * and removes temporary files an earlier, crashed run left for these names.
     */
    private List<Path> prepareOutputs() {
        List<Path> outs = new ArrayList<>();
        if (out != null) {
            outs.add(out);
        } else {
            createOutDir();
            for (Path p : in) {
                outs.add(outDir.resolve(p.getFileName() + ".sig"));
            }
        }
        List<Path> inputs = new ArrayList<>(in);
        inputs.addAll(OutputFiles.keyFiles(key));
        OutputFiles.checkAll(outs, inputs);
        for (Path p : outs) {
            OutputFiles.removeStaleTemps(p);
        }
        return outs;
    }

    private void createOutDir() {
        if (Files.isDirectory(outDir)) {
            return;
        }
        if (Files.exists(outDir, LinkOption.NOFOLLOW_LINKS)) {
            throw CliException.usage(outDir + ": --out-dir exists and is not a directory");
        }
        try {
            Files.createDirectories(outDir);
        } catch (IOException e) {
            throw new CliException(
                    CliException.FAILED, outDir + ": cannot create directory: " + OutputFiles.reason(e), e);
        }
    }

    private int signStateful(int b, int timeout, List<Path> outputs, PrintWriter o) {
        KeyDirectoryOwner owner = KeyFiles.ownKeyDirectory(key, timeout);
        try {
            return signStatefulOwned(b, timeout, outputs, o);
        } finally {
            if (owner != null) {
                owner.close();
            }
        }
    }

    private int signStatefulOwned(int b, int timeout, List<Path> outputs, PrintWriter o) {
        try (OpenedPrivateKey opened = StatefulKeys.open(key, b, timeout)) {
            StatefulSigner signer = opened.statefulSigner().orElseThrow();
            for (int i = 0; i < in.size(); i++) {
                byte[] msg = KeyFiles.read(in.get(i), "message");
                long t0 = System.nanoTime();
                var s = signer.signIndexed(idx -> msg);
                double ms = (System.nanoTime() - t0) / 1e6;
                writeSignature(outputs.get(i), s.signature(), "index " + s.index() + " is used up");
                o.printf(
                        "%s: index %d, %d bytes, %.2f ms -> %s%n",
                        in.get(i), s.index(), s.signature().length, ms, outputs.get(i));
            }
            o.printf("%s: %d signatures left%n", signer.parameterSet().setName(), signer.remaining());
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, key + ": " + OutputFiles.reason(e), e);
        }
        o.flush();
        return 0;
    }

    private int signHaetae(
            HaetaePrivateKey sk, HaetaeEngine e, HaetaeSampler smp, byte[] ctx, List<Path> outputs, PrintWriter o) {
        HaetaeSigner signer;
        try {
            signer = new HaetaeSigner(sk, ctx, smp, e, new SecureRandom());
        } catch (IllegalArgumentException ex) {
            throw CliException.usage(key + ": " + ex.getMessage());
        }
        for (int i = 0; i < in.size(); i++) {
            byte[] msg = KeyFiles.read(in.get(i), "message");
            long t0 = System.nanoTime();
            byte[] sig = signer.sign(msg);
            double ms = (System.nanoTime() - t0) / 1e6;
            writeSignature(outputs.get(i), sig, "HAETAE is stateless: sign again");
            o.printf("%s: %d bytes, %.2f ms -> %s%n", in.get(i), sig.length, ms, outputs.get(i));
        }
        o.flush();
        return 0;
    }

    private static void writeSignature(Path file, byte[] sig, String consequence) {
        try {
            OutputFiles.write(file, sig, false);
        } catch (CliException e) {
            throw new CliException(
                    CliException.FAILED,
                    e.getMessage() + "; the signature is lost (" + consequence + ")",
                    e.getCause());
        }
    }
}
