package dev.pqsign.opcua.gateway;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The served histories of all sensors, under one directory, made durable once a second (and on
 * close) by one background thread: an append costs a write, not an fsync, on the path from verdict
 * to served value. A kill of the process loses nothing the kernel has; a power loss at most the
 * last second, which the operator's own records still hold.
 */
final class GatewayHistory implements AutoCloseable {

    /** How often appended entries are made durable. */
    static final long SYNC_MILLIS = 1000;

    private static final System.Logger LOG = System.getLogger(GatewayHistory.class.getName());

    private final Map<String, SensorHistory> sensors = new LinkedHashMap<>();
    private final ScheduledExecutorService syncer;
    private final ScheduledFuture<?> task;

    private GatewayHistory(Map<String, SensorHistory> sensors) {
        this.sensors.putAll(sensors);
        syncer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "pqsign-gateway-history");
            t.setDaemon(true);
            return t;
        });
        task = syncer.scheduleWithFixedDelay(this::syncAll, SYNC_MILLIS, SYNC_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Opens the history of every sensor in {@code dir}.
     *
     * @throws IOException if a history cannot be opened (one line naming the file)
     */
    static GatewayHistory open(Path dir, List<String> sensors, long maxEntries, long maxBytes) throws IOException {
        Map<String, SensorHistory> opened = new LinkedHashMap<>();
        try {
            for (String s : sensors) {
                opened.put(s, SensorHistory.open(dir, s, maxEntries, maxBytes));
            }
        } catch (IOException | RuntimeException e) {
            for (SensorHistory h : opened.values()) {
                try {
                    h.close();
                } catch (IOException ignored) {
                    // the first failure is the one reported
                }
            }
            throw e;
        }
        return new GatewayHistory(opened);
    }

    /** The history of {@code sensor}, or null if it has none. */
    SensorHistory of(String sensor) {
        return sensors.get(sensor);
    }

    private void syncAll() {
        for (Map.Entry<String, SensorHistory> e : sensors.entrySet()) {
            try {
                e.getValue().sync();
            } catch (IOException | RuntimeException ex) {
                LOG.log(System.Logger.Level.WARNING, "gateway history of {0}: {1}", e.getKey(), ex.getMessage());
            }
        }
    }

    @Override
    public void close() {
        task.cancel(false);
        syncer.shutdown();
        try {
            syncer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Map.Entry<String, SensorHistory> e : sensors.entrySet()) {
            try {
                e.getValue().close();
            } catch (IOException ex) {
                LOG.log(System.Logger.Level.WARNING, "gateway history of {0}: {1}", e.getKey(), ex.getMessage());
            }
        }
    }
}
