/** The operator console: a live read-only web page, Prometheus metrics and a liveness probe. */
package dev.pqsign.console;
