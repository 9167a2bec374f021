package dev.pqsign.cli;

import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.LmsParameterSet;
import dev.pqsign.xmss.XmssParameterSet;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code pqsign params}: the supported parameter sets and their sizes. */
@Command(name = "params", description = "List supported parameter sets with their sizes.")
final class ParamsCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        String fmt = "%-26s %-12s %3s %3s %3s %10s %8s %22s  %s%n";
        out.printf(fmt, "NAME", "TYPE CODE", "n", "h", "d", "SIG BYTES", "PK BYTES", "MAX SIGNATURES", "NOTE");
        for (XmssParameterSet p : XmssParameterSet.values()) {
            String note = p.isPrivateUse()
                    ? "study set; private-use type code, not interoperable"
                    : p == XmssParameterSet.XMSSMT_SHA2_20_4_256 ? "study set 2" : "";
            out.printf(
                    fmt,
                    p.setName(),
                    String.format("0x%08x", p.typeCode()),
                    p.n(),
                    p.height(),
                    p.layers(),
                    p.signatureBytes(),
                    p.publicKeyBytes(),
                    p.maxSignatures(),
                    note);
        }
        for (HaetaeParameterSet p : HaetaeParameterSet.values()) {
            out.printf(
                    fmt,
                    p.setName(),
                    "-",
                    "-",
                    "-",
                    "-",
                    p.signatureBytes(),
                    p.publicKeyBytes(),
                    "unlimited",
                    "stateless; OID " + p.oid());
        }
        lms(out);
        out.flush();
        return 0;
    }

    /**
     * The LMS trees (RFC 8554, RFC 9858), each usable alone as a one-level HSS key, and how to name
     * an HSS hierarchy of them.
     */
    private static void lms(PrintWriter out) {
        String fmt = "%-40s %-21s %3s %3s %10s %8s %14s%n";
        out.println();
        out.printf(fmt, "LMS / HSS TREE", "TYPE CODES LMS/OTS", "n", "h", "SIG BYTES", "PK BYTES", "MAX SIGNATURES");
        for (LmsParameterSet p : LmsParameterSet.all()) {
            HssParameterSet one = HssParameterSet.of(p);
            out.printf(
                    fmt,
                    p.setName(),
                    String.format(
                            "0x%08x/0x%08x", p.lmsType().typeCode(), p.otsType().typeCode()),
                    p.n(),
                    p.h(),
                    one.signatureBytes(),
                    one.publicKeyBytes(),
                    one.maxSignatures());
        }
        HssParameterSet example = HssParameterSet.byName(
                        "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4+LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4")
                .orElseThrow();
        out.printf(
                "HSS: join 1 to %d trees of one hash function with + (top first), total height at most %d; e.g. %s"
                        + " (%d-byte signatures, %d signatures). Sizes above are of the one-level key.%n",
                HssParameterSet.MAX_LEVELS,
                HssParameterSet.MAX_SIGNABLE_HEIGHT,
                example.setName(),
                example.signatureBytes(),
                example.maxSignatures());
    }
}
