package dev.pqsign.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A man in the middle on loopback: a TCP relay between an operator and a sensor that forwards every
 * byte both ways, except that in the sensor's direction it changes the last byte of every
 * occurrence of {@code pattern} to {@code replacement}. On a channel without security (OPC UA
 * SecurityPolicy None) nothing below the signature notices: the operator gets a well-formed
 * message with a forged reading text in it. The match is made across reads (a running
 * Knuth–Morris–Pratt state), and only the last byte is changed, so no byte waits for the next read.
 */
final class TamperingRelay implements AutoCloseable {
    private final ServerSocket listener;
    private final int targetPort;
    private final byte[] pattern;
    private final byte replacement;
    private final int[] failure;
    private final AtomicInteger changed = new AtomicInteger();
    private final List<Socket> sockets = new ArrayList<>();
    private final Thread acceptor;

    TamperingRelay(int targetPort, String pattern, char replacement) throws IOException {
        this.targetPort = targetPort;
        this.pattern = pattern.getBytes(StandardCharsets.US_ASCII);
        this.replacement = (byte) replacement;
        this.failure = failure(this.pattern);
        this.listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::accept, "tampering-relay");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** How many occurrences were changed so far. */
    int changed() {
        return changed.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                synchronized (sockets) {
                    sockets.add(client);
                    sockets.add(server);
                }
                pump(client, server, false);
                pump(server, client, true);
            } catch (IOException e) {
                // closed, or the sensor is not there: the operator's connection fails and it retries
            }
        }
    }

    private void pump(Socket from, Socket to, boolean tamper) {
        Thread t = new Thread(
                () -> {
                    int state = 0;
                    byte[] buf = new byte[65536];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int n;
                        while ((n = in.read(buf)) > 0) {
                            if (tamper) {
                                state = rewrite(buf, n, state);
                            }
                            out.write(buf, 0, n);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // one side closed: close the other below
                    } finally {
                        closeQuietly(from);
                        closeQuietly(to);
                    }
                },
                "tampering-relay-pump");
        t.setDaemon(true);
        t.start();
    }

    /** Runs the matcher over {@code buf[0..n)} from {@code state}; changes matches; returns the state. */
    private int rewrite(byte[] buf, int n, int state) {
        for (int i = 0; i < n; i++) {
            while (state > 0 && buf[i] != pattern[state]) {
                state = failure[state - 1];
            }
            if (buf[i] == pattern[state]) {
                state++;
            }
            if (state == pattern.length) {
                buf[i] = replacement;
                changed.incrementAndGet();
                state = 0; // the changed byte cannot begin the next occurrence
            }
        }
        return state;
    }

    private static int[] failure(byte[] p) {
        int[] f = new int[p.length];
        int k = 0;
        for (int i = 1; i < p.length; i++) {
            while (k > 0 && p[i] != p[k]) {
                k = f[k - 1];
            }
            if (p[i] == p[k]) {
                k++;
            }
            f[i] = k;
        }
        return f;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        synchronized (sockets) {
            sockets.forEach(TamperingRelay::closeQuietly);
        }
    }
}
