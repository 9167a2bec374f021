/** Signed telemetry over OPC UA (Eclipse Milo): the sensor server and the operator client. */
module dev.pqsign.opcua {
    requires transitive dev.pqsign.telemetry;
    requires io.netty.transport;
    requires org.eclipse.milo.opcua.sdk.client;
    requires org.eclipse.milo.opcua.sdk.core;
    requires org.eclipse.milo.opcua.sdk.server;
    // SensorServer names its nodes by Milo NodeIds.
    requires transitive org.eclipse.milo.opcua.stack.core;
    requires org.eclipse.milo.opcua.stack.transport;
    requires java.logging;

    exports dev.pqsign.opcua;
    exports dev.pqsign.opcua.gateway;
    exports dev.pqsign.opcua.upstream;
}
