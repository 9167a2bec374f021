package dev.pqsign.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * An in-process TCP relay on 127.0.0.1 that forwards to a target (the sensor) while emulating a
 * network link: per direction, each chunk of bytes is delivered at
 * {@code max(previous delivery, link free + size / bandwidth + delay + U[0, jitter])}, so bytes
 * keep their order (as on a TCP connection), larger messages take longer, and a busy link queues.
 *
 * <p>Only loopback addresses are used: it listens on 127.0.0.1 and connects to the given target.
 */
public final class LinkEmulator implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LinkEmulator.class.getName());
    private static final int CHUNK = 16 * 1024;

    private final LinkProfile profile;
    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Random random;
    private final CopyOnWriteArrayList<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    private LinkEmulator(LinkProfile profile, InetSocketAddress target, long seed) throws IOException {
        this.profile = profile;
        this.target = target;
        this.random = new Random(seed);
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::acceptLoop, "pqsign-link-accept-" + listener.getLocalPort());
        t.setDaemon(true);
        t.start();
    }

    /**
     * Starts a relay to {@code targetPort} on 127.0.0.1.
     *
     * @param profile the link to emulate
     * @param targetPort the port the sensor server listens on
     * @param seed seed of the jitter generator (reproducible runs)
     * @return the running relay; close it to stop
     * @throws IOException if no listening socket can be opened on 127.0.0.1
     */
    public static LinkEmulator start(LinkProfile profile, int targetPort, long seed) throws IOException {
        Objects.requireNonNull(profile, "profile");
        return new LinkEmulator(profile, new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), seed);
    }

    /**
     * The local port clients connect to.
     *
     * @return the relay's listening port on 127.0.0.1
     */
    public int port() {
        return listener.getLocalPort();
    }

    /**
     * The emulated profile.
     *
     * @return the profile given to {@link #start}
     */
    public LinkProfile profile() {
        return profile;
    }

    /**
     * {@code serverEndpointUrl} with host and port replaced by this relay's.
     *
     * @param serverEndpointUrl the sensor server's endpoint URL, {@code scheme://host:port[/path]}
     * @return the same URL pointing at 127.0.0.1 and this relay's port, path kept
     */
    public String endpointUrl(String serverEndpointUrl) {
        int schemeEnd = serverEndpointUrl.indexOf("://");
        int pathStart = serverEndpointUrl.indexOf('/', schemeEnd + 3);
        String path = pathStart < 0 ? "" : serverEndpointUrl.substring(pathStart);
        return serverEndpointUrl.substring(0, schemeEnd + 3) + "127.0.0.1:" + port() + path;
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                try {
                    server.connect(target, 5000);
                } catch (IOException e) {
                    client.close();
                    LOG.log(Level.WARNING, "relay cannot reach {0}: {1}", target, e.getMessage());
                    continue;
                }
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(server);
                pipe(client, server, "up");
                pipe(server, client, "down");
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, "relay accept failed: {0}", e.getMessage());
                }
            }
        }
    }

    private record Chunk(byte[] data, long deliverAt) {
        /** A chunk without bytes ends the stream: a read into a non-empty buffer returns at least one byte. */
        boolean endOfStream() {
            return data.length == 0;
        }
    }

    /** Two threads per direction: one reads and timestamps, one waits and writes. */
    private void pipe(Socket from, Socket to, String dir) {
        BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
        Chunk eof = new Chunk(new byte[0], 0);
        Thread reader = new Thread(
                () -> {
                    long linkFreeAt = 0;
                    long lastDelivery = 0;
                    byte[] buf = new byte[CHUNK];
                    try (InputStream in = from.getInputStream()) {
                        int n;
                        while ((n = in.read(buf)) >= 0) {
                            long now = System.nanoTime();
                            long serialization = profile.bandwidthMbitPerS() == 0
                                    ? 0
                                    : (long) (n * 8.0 / (profile.bandwidthMbitPerS() * 1e6) * 1e9);
                            linkFreeAt = Math.max(now, linkFreeAt) + serialization;
                            long jitter;
                            synchronized (random) {
                                jitter = (long) (random.nextDouble() * profile.jitterMs() * 1e6);
                            }
                            long deliverAt = Math.max(
                                    lastDelivery, linkFreeAt + (long) (profile.oneWayDelayMs() * 1e6) + jitter);
                            lastDelivery = deliverAt;
                            queue.add(new Chunk(Arrays.copyOf(buf, n), deliverAt));
                        }
                    } catch (IOException e) {
                        // connection closed by either side
                    } finally {
                        queue.add(eof);
                    }
                },
                "pqsign-link-" + dir + "-read");
        Thread writer = new Thread(
                () -> {
                    try (OutputStream out = to.getOutputStream()) {
                        while (true) {
                            Chunk c = queue.take();
                            if (c.endOfStream()) {
                                break;
                            }
                            long wait;
                            while ((wait = c.deliverAt() - System.nanoTime()) > 0) {
                                LockSupport.parkNanos(wait);
                            }
                            out.write(c.data());
                            out.flush();
                        }
                    } catch (IOException | InterruptedException e) {
                        // connection closed or relay stopped
                    } finally {
                        closeQuietly(to);
                        closeQuietly(from);
                    }
                },
                "pqsign-link-" + dir + "-write");
        reader.setDaemon(true);
        writer.setDaemon(true);
        reader.start();
        writer.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    /** Stops accepting and closes every relayed connection. */
    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // already closed
        }
        for (Socket s : sockets) {
            closeQuietly(s);
        }
    }
}
