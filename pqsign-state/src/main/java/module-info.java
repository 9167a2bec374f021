/** Durable key state on disk: the file state store, atomic durable writes and the timed file lock. */
module dev.pqsign.state {
    requires transitive dev.pqsign.core;

    exports dev.pqsign.state;
}
