/** Scheme-independent signing interfaces, key-state types, exceptions and helpers shared by every module. */
module dev.pqsign.core {
    exports dev.pqsign.core;
    // StatefulSignerCore, KeySplitter, IndexRange: the reservation, locking and split machinery
    // that the stateful schemes share (docs/stateful-signing.md, "One implementation").
    exports dev.pqsign.core.internal to
            dev.pqsign.xmss,
            dev.pqsign.lms;
}
