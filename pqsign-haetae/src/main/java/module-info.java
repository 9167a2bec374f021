/** HAETAE: keys, signer and verifier with the FAST and COMPACT engines. */
module dev.pqsign.haetae {
    requires transitive dev.pqsign.core;
    // The opt-in vector path (docs/haetae.md) reads jdk.incubator.vector through --add-modules and
    // --add-reads (see the POM), not "requires static": a static requirement is resolved whenever a
    // module that reads this one is compiled, and every such compilation would warn about the
    // incubating module. On the class path, where pqsign runs, --add-modules alone switches it on.

    exports dev.pqsign.haetae;
    // dev.pqsign.haetae.internal is not exported: `pqsign kat` uses HaetaeKat from the CLI, which
    // runs on the class path (docs/architecture.md).

    // measurement tools (the bench report) learn of the engines' work areas through this SPI
    uses dev.pqsign.haetae.HaetaeWorkAreaProbe;
}
