/** The operator application: watches sensors, verifies every reading, reports every verdict. */
module dev.pqsign.operator {
    requires transitive dev.pqsign.opcua;
    requires transitive dev.pqsign.console;

    exports dev.pqsign.operator;
}
