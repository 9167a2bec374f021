package dev.pqsign.bench.report;

import static dev.pqsign.bench.report.BenchRunner.MESSAGE;

import dev.pqsign.bench.report.BenchReport.Sizes;
import dev.pqsign.bench.report.BenchReport.WorkingSet;
import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaeSampler;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.haetae.HaetaeVerifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The HAETAE rows of the report: keygen, sign and verify with every engine (and every sampler for
 * signing), the engines' per-thread working sets, then BouncyCastle 1.87's HAETAE for the same set.
 */
final class HaetaeRows {
    private final Measurements m;
    private final List<WorkingSet> workingSets = new ArrayList<>();
    private String workingSetNote;

    HaetaeRows(Measurements m) {
        this.m = m;
    }

    /** The report's name of an engine and sampler: pqsign, pqsign-compact, pqsign-v1.1.2, … */
    static String impl(HaetaeEngine engine, HaetaeSampler sampler) {
        String impl = "pqsign";
        if (engine != HaetaeEngine.FAST) {
            impl += "-" + engine.name().toLowerCase(Locale.ROOT);
        }
        if (sampler != null && sampler != HaetaeSampler.defaultSampler()) {
            impl += "-v" + sampler.name().substring(1).replace('_', '.');
        }
        return impl;
    }

    /** The engines' work areas measured so far (empty if none). */
    List<WorkingSet> workingSets() {
        return workingSets;
    }

    /** Why the working sets are missing, or {@code null}. */
    String workingSetNote() {
        if (workingSetNote == null && workingSets.isEmpty()) {
            return "not run (no HAETAE set selected)";
        }
        return workingSetNote;
    }

    /**
     * On the opt-in Vector API path only: unreported FAST signatures of every selected HAETAE set and
     * both samplers for at least 5 s, because the vector kernels run interpreted (far slower than the
     * scalar code, with a heap object per vector operation) until C2 has compiled them. The path
     * itself is fixed when the JVM starts; this only keeps the rows from measuring the interpreter.
     */
    void warmUpVectorPath(List<HaetaeParameterSet> sets) {
        if (HaetaeEngine.fastVectorLanes() == 0 || sets.isEmpty()) {
            return;
        }
        long millis = Math.max(3 * m.options().warmupMs(), 5000);
        long end = System.nanoTime() + millis * 1_000_000L;
        int signatures = 0;
        do {
            for (HaetaeParameterSet p : sets) {
                HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(p, m.random());
                for (HaetaeSampler s : HaetaeSampler.values()) {
                    HaetaeSigner signer =
                            new HaetaeSigner(kp.privateKey(), new byte[0], s, HaetaeEngine.FAST, m.random());
                    Measurer.consume(signer.sign(MESSAGE).length);
                    signatures++;
                }
            }
        } while (System.nanoTime() < end);
        m.note(String.format(
                Locale.ROOT,
                "HAETAE FAST on the opt-in Vector API path: %d unreported signatures "
                        + "(%.1f s) before the HAETAE rows, so that C2 has compiled the vector kernels.",
                signatures,
                millis / 1000.0));
    }

    void run(HaetaeParameterSet p) throws Exception {
        String name = p.setName();
        for (HaetaeEngine e : HaetaeEngine.values()) {
            m.record(name, "keygen", impl(e, null), 1, () -> HaetaeKeyPairGenerator.generate(p, m.random(), e));
        }
        HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(p, m.random());
        byte[] signature = sign(name, kp);
        for (HaetaeEngine e : HaetaeEngine.values()) {
            HaetaeVerifier v = new HaetaeVerifier(kp.publicKey(), new byte[0], e);
            if (!v.verify(MESSAGE, signature)) {
                throw new IllegalStateException(name + ": pqsign signature does not verify with engine " + e);
            }
            m.record(name, "verify", impl(e, null), 1, () -> v.verify(MESSAGE, signature));
        }
        measureWorkingSets(p);
        if (m.options().bouncyCastle()) {
            BcLatticeRows.haetae(m, name);
        }
    }

    /** The sign rows of every engine and sampler; returns a signature of the default engine and sampler. */
    private byte[] sign(String name, HaetaeKeyPair kp) throws Exception {
        byte[] sig = null;
        for (HaetaeEngine e : HaetaeEngine.values()) {
            for (HaetaeSampler s : HaetaeSampler.values()) {
                HaetaeSigner signer = new HaetaeSigner(kp.privateKey(), new byte[0], s, e, m.random());
                SignatureLengths lengths = new SignatureLengths();
                m.record(name, "sign", impl(e, s), 1, () -> lengths.seen(signer.sign(MESSAGE)));
                if (e == HaetaeEngine.FAST && s == HaetaeSampler.defaultSampler()) {
                    sig = signer.sign(MESSAGE);
                    m.size(new Sizes(
                            name,
                            "pqsign",
                            kp.publicKey().getEncoded().length,
                            kp.privateKey().getEncoded().length,
                            -1,
                            lengths.min(),
                            lengths.max()));
                }
            }
        }
        return sig;
    }

    /** The engines' per-thread work areas, on this thread, which has just run every HAETAE operation. */
    private void measureWorkingSets(HaetaeParameterSet p) {
        if (workingSetNote != null) {
            return;
        }
        try {
            List<WorkingSet> measured = WorkingSets.measure(p, m.options().log());
            if (measured.isEmpty()) {
                workingSetNote = "not measured: this thread's HAETAE work areas were created before the report "
                        + "started recording them";
            }
            workingSets.addAll(measured);
        } catch (RuntimeException | LinkageError e) {
            // JOL reads object layouts through JVM internals; a JVM it does not support must not end the run
            workingSetNote = "JOL could not measure the working set: " + e;
            m.options().log().accept(workingSetNote);
        }
    }
}
