/** The operator's live web console and Prometheus metrics. */
module dev.pqsign.console {
    requires transitive dev.pqsign.telemetry;
    requires com.fasterxml.jackson.databind;
    requires io.prometheus.metrics.core;
    requires io.prometheus.metrics.instrumentation.jvm;
    requires io.prometheus.metrics.model;
    requires io.prometheus.writer.text;
    requires org.eclipse.jetty.http;
    requires org.eclipse.jetty.server;
    requires org.eclipse.jetty.util;

    exports dev.pqsign.console;
}
