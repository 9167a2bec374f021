package dev.pqsign.operator;

import dev.pqsign.console.ConsoleOptions;
import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.gateway.GatewaySecurity;
import dev.pqsign.opcua.gateway.GatewayServer;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What an operator run watches and where it reports; built with {@link #builder(Path, List)}.
 * Every value is checked when built, so a run never starts half configured.
 */
public final class OperatorSettings {
    /** What {@code pqsign operator} uses unless told otherwise. */
    static final double DEFAULT_PUBLISHING_MS = 5;

    final Path dataDir;
    final List<SensorTarget> sensors;
    final boolean named;
    final double publishingMs;
    final int queueSize;
    final int remember;
    final long readings;
    final Duration connectTimeout;
    final Path jsonlFile;
    final boolean jsonlToStandardOutput;
    final ConsoleOptions console;
    final long warnSeconds;
    final long warnRemaining;
    final boolean liveTable;
    final Duration silentAfter;
    /** The OPC UA gateway of verified data ({@code --serve}), or null for none. */
    final GatewayServer.Config gateway;

    private OperatorSettings(Builder b) {
        this.dataDir = b.dataDir;
        this.sensors = b.sensors;
        this.named = b.named;
        this.publishingMs = b.publishingMs;
        this.queueSize = b.queueSize;
        this.remember = b.remember;
        this.readings = b.readings;
        this.connectTimeout = b.connectTimeout;
        this.jsonlFile = b.jsonlFile;
        this.jsonlToStandardOutput = b.jsonlToStandardOutput;
        this.console = b.console;
        this.warnSeconds = b.warnSeconds;
        this.warnRemaining = b.warnRemaining;
        this.liveTable = b.liveTable && b.named && !b.jsonlToStandardOutput;
        this.silentAfter = b.silentAfter;
        this.gateway = b.gateway;
    }

    /**
     * Settings for watching {@code sensors} with the data directory {@code dataDir}.
     *
     * @param dataDir replay marks, accepted records, chains, evidence, application certificate and trust list
     * @param sensors the sensors, at least one, distinct names
     * @return a builder with the defaults of {@code pqsign operator}
     */
    public static Builder builder(Path dataDir, List<SensorTarget> sensors) {
        return new Builder(dataDir, sensors);
    }

    /** Builds {@link OperatorSettings}. */
    public static final class Builder {
        private final Path dataDir;
        private final List<SensorTarget> sensors;
        private boolean named;
        private double publishingMs = DEFAULT_PUBLISHING_MS;
        private int queueSize = Operator.DEFAULT_QUEUE_SIZE;
        private int remember = 1024;
        private long readings;
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Path jsonlFile;
        private boolean jsonlToStandardOutput;
        private ConsoleOptions console;
        private long warnSeconds = 600;
        private long warnRemaining = 100;
        private boolean liveTable;
        private Duration silentAfter = Duration.ofSeconds(30);
        private String serve;
        private Set<GatewaySecurity> serveSecurity = EnumSet.noneOf(GatewaySecurity.class);
        private List<X509Certificate> serveTrustedClients = List.of();
        private long serveHistoryEntries = GatewayServer.DEFAULT_HISTORY_ENTRIES;
        private long serveHistoryMib = GatewayServer.DEFAULT_HISTORY_BYTES >> 20;
        private GatewayServer.Config gateway;

        private Builder(Path dataDir, List<SensorTarget> sensors) {
            this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
            this.sensors = List.copyOf(sensors);
        }

        /**
         * Several sensors from a list: every line starts with the sensor's name, and a sensor not
         * reached in time is reported and retried while the others run on (one sensor not reached
         * in time otherwise ends the run).
         *
         * @param named whether the sensors come from a list
         * @return this builder
         */
        public Builder named(boolean named) {
            this.named = named;
            return this;
        }

        /**
         * Requested publishing interval.
         *
         * @param ms positive milliseconds
         * @return this builder
         */
        public Builder publishingMs(double ms) {
            this.publishingMs = ms;
            return this;
        }

        /**
         * Readings a sensor may queue between two Publish responses.
         *
         * @param n 1 … {@value Operator#MAX_QUEUE_SIZE}
         * @return this builder
         */
        public Builder queueSize(int n) {
            this.queueSize = n;
            return this;
        }

        /**
         * Accepted readings remembered per key, to tell a duplicate from index reuse.
         *
         * @param n 1 … 2^20
         * @return this builder
         */
        public Builder remember(int n) {
            this.remember = n;
            return this;
        }

        /**
         * Stop after this many readings (0: until stopped).
         *
         * @param n 0 or more
         * @return this builder
         */
        public Builder readings(long n) {
            this.readings = n;
            return this;
        }

        /**
         * How long to wait for the sensors at start.
         *
         * @param timeout not negative
         * @return this builder
         */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * Also write every verdict as a JSON line to {@code file} (appended).
         *
         * @param file the file, or null for none
         * @return this builder
         */
        public Builder jsonl(Path file) {
            this.jsonlFile = file;
            return this;
        }

        /**
         * Write the JSON lines to standard output instead of the text lines (status lines go to
         * standard error).
         *
         * @param toStandardOutput whether to
         * @return this builder
         */
        public Builder jsonlToStandardOutput(boolean toStandardOutput) {
            this.jsonlToStandardOutput = toStandardOutput;
            return this;
        }

        /**
         * Serve the live console and metrics.
         *
         * @param options where, or null for no console
         * @return this builder
         */
        public Builder console(ConsoleOptions options) {
            this.console = options;
            return this;
        }

        /**
         * Warn when a key runs out within this many seconds without a next key.
         *
         * @param seconds 1 or more
         * @return this builder
         */
        public Builder warnSeconds(long seconds) {
            this.warnSeconds = seconds;
            return this;
        }

        /**
         * Warn when a key has fewer signatures left than this without a next key.
         *
         * @param signatures 0 or more
         * @return this builder
         */
        public Builder warnRemaining(long signatures) {
            this.warnRemaining = signatures;
            return this;
        }

        /**
         * Redraw a live table on a terminal instead of a line per verdict (only with {@link #named}).
         *
         * @param liveTable whether standard output is a terminal
         * @return this builder
         */
        public Builder liveTable(boolean liveTable) {
            this.liveTable = liveTable;
            return this;
        }

        /**
         * Report a sensor that sent no reading for longer than this ({@code SILENT}); zero: never.
         *
         * @param threshold not negative
         * @return this builder
         */
        public Builder silentAfter(Duration threshold) {
            this.silentAfter = Objects.requireNonNull(threshold, "threshold");
            return this;
        }

        /**
         * Serve the verified readings as a read-only OPC UA server (the gateway, docs/gateway.md),
         * with its certificate, trust list and history under {@code DATA_DIR/gateway}.
         *
         * @param hostPort {@code PORT} or {@code HOST:PORT} (HOST defaults to 127.0.0.1; port 0: any
         *     free port), or null for no gateway
         * @return this builder
         */
        public Builder serve(String hostPort) {
            this.serve = hostPort;
            return this;
        }

        /**
         * The gateway's endpoints, one per mode (default: {@link GatewaySecurity#NONE} only).
         *
         * @param modes the modes offered; empty for the default
         * @return this builder
         */
        public Builder serveSecurity(Set<GatewaySecurity> modes) {
            this.serveSecurity = modes.isEmpty() ? EnumSet.noneOf(GatewaySecurity.class) : EnumSet.copyOf(modes);
            return this;
        }

        /**
         * Client application certificates the gateway's signing endpoints trust.
         *
         * @param clients the certificates (none without a signing mode)
         * @return this builder
         */
        public Builder serveTrustedClients(List<X509Certificate> clients) {
            this.serveTrustedClients = List.copyOf(clients);
            return this;
        }

        /**
         * Bounds of the gateway's history of accepted readings per sensor (for HistoryRead).
         *
         * @param entries the most entries kept, 0 for no history, else at least 2
         * @param mib the most MiB kept, 1 … 2^20
         * @return this builder
         */
        public Builder serveHistory(long entries, long mib) {
            this.serveHistoryEntries = entries;
            this.serveHistoryMib = mib;
            return this;
        }

        /**
         * Checks every value.
         *
         * @return the settings
         * @throws IllegalArgumentException naming the first value out of range
         */
        public OperatorSettings build() {
            if (sensors.isEmpty()) {
                throw new IllegalArgumentException("no sensor to watch");
            }
            if (sensors.stream().map(SensorTarget::name).distinct().count() != sensors.size()) {
                throw new IllegalArgumentException("two sensors have the same name");
            }
            if (!(publishingMs > 0) || Double.isInfinite(publishingMs)) {
                throw new IllegalArgumentException("publishing interval must be positive, got " + publishingMs);
            }
            if (queueSize < 1 || queueSize > Operator.MAX_QUEUE_SIZE) {
                throw new IllegalArgumentException(
                        "queue size must be 1.." + Operator.MAX_QUEUE_SIZE + ", got " + queueSize);
            }
            if (remember < 1 || remember > 1 << 20) {
                throw new IllegalArgumentException("readings remembered must be 1..1048576, got " + remember);
            }
            if (readings < 0
                    || connectTimeout.isNegative()
                    || silentAfter.isNegative()
                    || warnSeconds < 1
                    || warnRemaining < 0) {
                throw new IllegalArgumentException("readings, connect timeout, warn seconds or warn remaining out of"
                        + " range: " + readings + ", " + connectTimeout + ", " + warnSeconds + ", " + warnRemaining);
            }
            if (jsonlFile != null && jsonlToStandardOutput) {
                throw new IllegalArgumentException("JSON lines go to a file or to standard output, not both");
            }
            gateway = serve == null ? null : gatewayConfig();
            return new OperatorSettings(this);
        }

        /** The gateway's settings from the serve values; an exception names the value out of range. */
        private GatewayServer.Config gatewayConfig() {
            Set<GatewaySecurity> modes = serveSecurity.isEmpty() ? EnumSet.of(GatewaySecurity.NONE) : serveSecurity;
            if (!serveTrustedClients.isEmpty() && modes.equals(EnumSet.of(GatewaySecurity.NONE))) {
                throw new IllegalArgumentException("trusted gateway clients need a sign or sign-encrypt endpoint");
            }
            if (serveHistoryEntries < 0 || serveHistoryEntries == 1) {
                throw new IllegalArgumentException(
                        "gateway history must be 0 (none) or at least 2 entries, got " + serveHistoryEntries);
            }
            if (serveHistoryMib < 1 || serveHistoryMib > 1 << 20) {
                throw new IllegalArgumentException("gateway history must be 1..1048576 MiB, got " + serveHistoryMib);
            }
            try {
                return GatewayServer.Config.serve(
                        serve,
                        dataDir.resolve("gateway"),
                        modes,
                        serveTrustedClients,
                        serveHistoryEntries,
                        serveHistoryMib << 20);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("gateway address: " + e.getMessage(), e);
            }
        }
    }
}
