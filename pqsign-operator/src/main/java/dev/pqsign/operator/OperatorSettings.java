package dev.pqsign.operator;

import dev.pqsign.console.ConsoleOptions;
import dev.pqsign.opcua.Operator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

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
            return new OperatorSettings(this);
        }
    }
}
