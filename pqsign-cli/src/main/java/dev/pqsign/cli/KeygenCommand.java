package dev.pqsign.cli;

import dev.pqsign.core.Hex;
import dev.pqsign.core.Secrets;
import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.keys.HaetaeKeyFile;
import dev.pqsign.keys.HaetaeScheme;
import dev.pqsign.keys.HssScheme;
import dev.pqsign.keys.SignatureScheme;
import dev.pqsign.keys.XmssScheme;
import dev.pqsign.lms.HssKeyGenerator;
import dev.pqsign.lms.HssKeyState;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssPrivateKey;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.xmss.WotsDerivation;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import java.util.function.LongConsumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pqsign keygen}: writes key.pub and the private key (key.state for XMSS and HSS, key.sk for
 * HAETAE).
 */
@Command(
        name = "keygen",
        description = "Generate a key pair: DIR/key.pub and DIR/key.state (XMSS, HSS) or DIR/key.sk (HAETAE).")
final class KeygenCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--params",
            required = true,
            description = "Parameter set, e.g. XMSSMT-SHA2_20/4_256, LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4,"
                    + " an HSS hierarchy of LMS sets joined by + (top first), or HAETAE-2 (see 'pqsign params').")
    String params;

    @Option(
            names = "--out",
            required = true,
            description = "New key directory (created whole; an existing one must be empty).")
    Path out;

    @Option(
            names = "--seed",
            description = "XMSS only, for tests: SK_SEED||SK_PRF||PUB_SEED as 3n hex bytes. INSECURE.")
    String seedHex;

    @Option(
            names = "--derivation",
            defaultValue = "sp800-208",
            description = "XMSS WOTS+ key derivation: sp800-208 (default) or rfc8391 (BouncyCastle-compatible).")
    String derivation;

    @Option(names = "--threads", description = "Threads for tree computation (default: all cores).")
    Integer threads;

    /** More threads than this only costs memory; the tree computation has no use for them. */
    static final int MAX_THREADS = 1024;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        SignatureScheme scheme = KeyFiles.scheme(params);
        if (threads != null) {
            Bounds.check("--threads", threads, 1, MAX_THREADS);
        }
        if (scheme instanceof XmssScheme x) {
            return xmss(x.parameterSet(), err);
        }
        if (seedHex != null) {
            throw CliException.usage("--seed is only supported for XMSS / XMSS^MT keys");
        }
        if (scheme instanceof HssScheme h) {
            if (spec.commandLine().getParseResult().hasMatchedOption("--derivation")) {
                throw CliException.usage("--derivation applies only to XMSS / XMSS^MT keys");
            }
            return hss(h.parameterSet(), err);
        }
        HaetaeParameterSet hp = ((HaetaeScheme) scheme).parameterSet();
        KeyDirectory.checkTarget(out);
        long t0 = System.nanoTime();
        HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(hp, new SecureRandom());
        double ms = (System.nanoTime() - t0) / 1e6;
        byte[] sk = HaetaeKeyFile.encode(kp.privateKey());
        try (KeyDirectory dir = KeyDirectory.stage(out)) {
            try {
                dir.write("key.sk", f -> DurableFiles.createAtomically(f, sk));
            } finally {
                Secrets.wipe(sk);
                kp.privateKey().destroy();
            }
            dir.write("key.pub", f -> OutputFiles.writeDurably(f, kp.publicKey().getEncoded(), true));
            dir.publish();
        }
        spec.commandLine()
                .getOut()
                .printf(
                        "%s key generated in %.1f ms%n  public key:  %s%n  private key: %s%n",
                        hp.setName(), ms, out.resolve("key.pub"), out.resolve("key.sk"));
        return 0;
    }

    private int xmss(XmssParameterSet p, PrintWriter err) {
        WotsDerivation d = WotsDerivation.byCliName(derivation)
                .orElseThrow(() ->
                        CliException.usage("--derivation must be sp800-208 or rfc8391, got '" + derivation + "'"));
        byte[] seed = null;
        if (seedHex != null) {
            try {
                seed = Hex.decode(seedHex);
            } catch (IllegalArgumentException e) {
                throw CliException.usage("--seed: " + e.getMessage());
            }
            if (seed.length != 3 * p.n()) {
                throw CliException.usage("--seed for " + p.setName() + " must be 3n = " + 3 * p.n() + " bytes ("
                        + 6 * p.n() + " hex digits), got " + seed.length);
            }
        }
        KeyDirectory.checkTarget(out);
        int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
        long leaves = 1L << p.treeHeight();
        LongConsumer progress = leaves >= 4096 ? new Progress(err, leaves) : null;
        long t0 = System.nanoTime();
        XmssPrivateKey key;
        if (seed != null) {
            err.println("pqsign: WARNING: --seed makes a key from known seeds; it is INSECURE and for tests only");
            err.flush();
            key = XmssKeyGenerator.fromSeed(p, d, seed, t, progress);
            Secrets.wipe(seed);
        } else {
            key = XmssKeyGenerator.generate(p, d, new SecureRandom(), t, progress);
        }
        double ms = (System.nanoTime() - t0) / 1e6;
        byte[] state = XmssKeyState.fresh(key).encode();
        try (KeyDirectory dir = KeyDirectory.stage(out)) {
            try {
                dir.write(
                        "key.state",
                        f -> FileStateStore.create(f, state, FileStateStore.DEFAULT_LOCK_TIMEOUT)
                                .close());
            } finally {
                Secrets.wipe(state);
            }
            dir.write(
                    "key.pub", f -> OutputFiles.writeDurably(f, key.publicKey().encoded(), true));
            dir.publish();
        } finally {
            key.destroy();
        }
        PrintWriter o = spec.commandLine().getOut();
        o.printf(
                "%s key generated in %.1f ms (%s derivation, %d signatures)%n  public key: %s%n  key state:  %s%n",
                p.setName(), ms, d.cliName(), p.maxSignatures(), out.resolve("key.pub"), out.resolve("key.state"));
        if (p.isPrivateUse()) {
            o.printf(
                    "  note: %s has a private-use type code (0x%08x); other implementations will not recognise it%n",
                    p.setName(), p.typeCode());
        }
        o.flush();
        return 0;
    }

    private int hss(HssParameterSet p, PrintWriter err) {
        if (!p.isSignable()) {
            throw CliException.usage("pqsign verifies but does not make keys of " + p.setName()
                    + ": every level must use one hash function and the heights may add up to at most "
                    + HssParameterSet.MAX_SIGNABLE_HEIGHT);
        }
        KeyDirectory.checkTarget(out);
        int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
        long leaves = p.top().leaves();
        LongConsumer progress = leaves >= 4096 ? new Progress(err, leaves) : null;
        long t0 = System.nanoTime();
        HssPrivateKey key = HssKeyGenerator.generate(p, new SecureRandom(), t, progress);
        double ms = (System.nanoTime() - t0) / 1e6;
        byte[] pub = key.publicKey().encoded();
        byte[] state = HssKeyState.fresh(key).encode();
        try (KeyDirectory dir = KeyDirectory.stage(out)) {
            try {
                dir.write(
                        "key.state",
                        f -> FileStateStore.create(f, state, FileStateStore.DEFAULT_LOCK_TIMEOUT)
                                .close());
            } finally {
                Secrets.wipe(state);
            }
            dir.write("key.pub", f -> OutputFiles.writeDurably(f, pub, true));
            dir.publish();
        } finally {
            key.destroy();
        }
        PrintWriter o = spec.commandLine().getOut();
        o.printf(
                "%s key generated in %.1f ms (%d level%s, %d signatures)%n  public key: %s%n  key state:  %s%n",
                p.setName(),
                ms,
                p.levels(),
                p.levels() == 1 ? "" : "s",
                p.maxSignatures(),
                out.resolve("key.pub"),
                out.resolve("key.state"));
        o.flush();
        return 0;
    }

    /** Public keys are meant to be shared: durable like everything else, but readable by all (0644). */
    static void writePublic(Path file, byte[] bytes) {
        OutputFiles.write(file, bytes, true);
    }

    /** Prints tree-building progress to stderr about once a second. */
    private static final class Progress implements LongConsumer {
        private final PrintWriter err;
        private final long total;
        private long lastPrint = System.nanoTime();

        Progress(PrintWriter err, long total) {
            this.err = err;
            this.total = total;
        }

        @Override
        public synchronized void accept(long done) {
            long now = System.nanoTime();
            if (now - lastPrint > 1_000_000_000L || done == total) {
                lastPrint = now;
                err.printf("keygen: %d/%d leaves (%.0f%%)%n", done, total, 100.0 * done / total);
                err.flush();
            }
        }
    }
}
