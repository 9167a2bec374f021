/** Scheme-independent signing interfaces, key-state types, exceptions and helpers shared by every module. */
module dev.pqsign.core {
    exports dev.pqsign.core;
}
