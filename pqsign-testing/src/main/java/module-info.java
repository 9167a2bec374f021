/** Test fixtures shared by the modules' tests and the benchmarks: the one in-memory state store. */
module dev.pqsign.testing {
    requires transitive dev.pqsign.core;

    exports dev.pqsign.testing;
}
