package dev.pqsign.cli;

import dev.pqsign.haetae.HaetaeParameterSet;
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
        out.flush();
        return 0;
    }
}
