package dev.pqsign.cli;

import dev.pqsign.lms.HssSignerOptions;
import dev.pqsign.xmss.XmssStatefulSigner;
import picocli.CommandLine.Option;

/**
 * How a sensor's key signs readings: the options {@code pqsign sensor} and {@code pqsign demo} share
 * (a picocli mixin), so both commands describe and apply them the same way.
 */
final class SensorSigningOptions {
    @Option(
            names = "--batch",
            defaultValue = "1",
            description = {
                "Indices reserved per durable state write (default 1:",
                "one fsync per reading; K > 1 is faster and a crash loses at most K - 1 unused indices)."
            })
    int batch;

    @Option(
            names = "--reserve-ahead",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = {
                "XMSS keys: reserve the next batch in the background right after a signature, so the fsync is",
                "not in the next reading's path (default on; a crash can skip one index more)."
            })
    boolean reserveAhead;

    @Option(
            names = "--hash-midstates",
            negatable = true,
            defaultValue = "false",
            fallbackValue = "true",
            description = {
                "XMSS keys: resume cached SHA-256 mid-states while signing (about a third fewer compressions,",
                "~0.1 ms less CPU per signature, ~650 KB of short-lived garbage per signature; default off: allocation-free)."
            })
    boolean hashMidstates;

    /** The options as given; for callers outside picocli (tests, the demo's warm-up). */
    static SensorSigningOptions of(int batch, boolean reserveAhead, boolean hashMidstates) {
        SensorSigningOptions o = new SensorSigningOptions();
        o.batch = batch;
        o.reserveAhead = reserveAhead;
        o.hashMidstates = hashMidstates;
        return o;
    }

    /** Fails with a usage error unless the batch is in the range {@code sign --batch} has. */
    void check() {
        Bounds.check("--batch", batch, 1, SignCommand.MAX_BATCH);
    }

    /** The HSS stateful signer's options (tree threads: one per core; no SHA-256 mid-states). */
    HssSignerOptions hss() {
        return HssSignerOptions.defaults().withBatch(batch).withReserveAhead(reserveAhead);
    }

    /** The XMSS stateful signer's options (tree threads: one per core). */
    XmssStatefulSigner.Options xmss() {
        return XmssStatefulSigner.Options.defaults()
                .withBatch(batch)
                .withReserveAhead(reserveAhead)
                .withMidstates(hashMidstates);
    }
}
