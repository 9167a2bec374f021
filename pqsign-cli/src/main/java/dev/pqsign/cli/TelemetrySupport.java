package dev.pqsign.cli;

import dev.pqsign.opcua.TransportSecurity;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** What {@code pqsign sensor} and {@code pqsign operator} share: transport options, logging, Ctrl-C. */
final class TelemetrySupport {
    private TelemetrySupport() {}

    /** {@code none} or {@code sign-encrypt} (Basic256Sha256, SignAndEncrypt). */
    static TransportSecurity security(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "none" -> TransportSecurity.NONE;
            case "sign-encrypt", "basic256sha256" -> TransportSecurity.BASIC256SHA256_SIGN_AND_ENCRYPT;
            default -> throw CliException.usage("--security must be none or sign-encrypt, got '" + name + "'");
        };
    }

    /** An RSA application certificate of the peer, DER or PEM (e.g. the file the peer printed at start-up). */
    static X509Certificate applicationCertificate(Path file) {
        byte[] b = KeyFiles.readSmall(file, "application certificate");
        try {
            return (X509Certificate)
                    CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(b));
        } catch (CertificateException | RuntimeException e) {
            throw CliException.usage(
                    "application certificate " + file + " is not an X.509 certificate (DER or PEM): " + e.getMessage());
        }
    }

    /** Writes our application certificate as DER so the peer can trust it; returns the file. */
    static Path exportApplicationCertificate(X509Certificate cert, Path dataDir, String name) throws IOException {
        return dev.pqsign.opcua.ApplicationIdentity.export(
                cert, dataDir.resolve("pki").resolve(name));
    }

    /** Held so the JUL configuration below is not garbage collected with the logger. */
    private static final java.util.logging.Logger VERIFIER_LOG =
            java.util.logging.Logger.getLogger("dev.pqsign.telemetry.operator.ReadingVerifier");

    /**
     * Quiets Milo's INFO and WARN chatter (slf4j-simple; e.g. a bind failure is reported by the CLI as
     * one line anyway) unless the user configured logging; errors such as a refused untrusted peer
     * stay visible. Also quiets the verifier's
     * rejection warnings, which the operator prints itself as REJECTED lines (PQSIGN_DEBUG=1 keeps both).
     */
    static void quietLogging() {
        if (System.getenv("PQSIGN_DEBUG") == null) {
            VERIFIER_LOG.setLevel(java.util.logging.Level.SEVERE);
        }
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty(
                    "org.slf4j.simpleLogger.defaultLogLevel", System.getenv("PQSIGN_DEBUG") != null ? "info" : "error");
        }
        if (System.getProperty("org.slf4j.simpleLogger.logFile") == null) {
            System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        }
    }

    /**
     * Ctrl-C (SIGINT / SIGTERM) handling for a long-running command. The hook calls {@code onStop}
     * (which must make the command's main loop finish), waits for the command to report that it has
     * cleaned up ({@link #finished}), and then ends the JVM with the command's exit code. A command
     * stuck in an uninterruptible read (stdin) is cleaned up by {@code forceCleanup} from the hook
     * (which returns {@code true} if it did, {@code false} if the command is busy and will finish).
     */
    static final class CtrlC implements AutoCloseable {
        private final Thread hook;
        private final CountDownLatch done = new CountDownLatch(1);
        private volatile int exitCode;

        CtrlC(Runnable onStop, java.util.function.BooleanSupplier forceCleanup) {
            hook = new Thread(
                    () -> {
                        onStop.run();
                        try {
                            if (!done.await(3, TimeUnit.SECONDS) && !forceCleanup.getAsBoolean()) {
                                done.await(30, TimeUnit.SECONDS);
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        System.out.flush();
                        System.err.flush();
                        Runtime.getRuntime().halt(exitCode);
                    },
                    "pqsign-ctrl-c");
            Runtime.getRuntime().addShutdownHook(hook);
        }

        /** The command has cleaned up and printed its summary. */
        void finished(int code) {
            exitCode = code;
            done.countDown();
        }

        /** Removes the hook after a normal end (not during shutdown). */
        @Override
        public void close() {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to; it ends the JVM with our exit code
            }
        }
    }
}
