package dev.pqsign.opcua.upstream;

import dev.pqsign.opcua.ApplicationIdentity;
import dev.pqsign.opcua.upstream.internal.FactQueue;
import dev.pqsign.opcua.upstream.internal.UpstreamLink;
import dev.pqsign.telemetry.ReadingSource;
import dev.pqsign.telemetry.upstream.ChannelSecurity;
import dev.pqsign.telemetry.upstream.UpstreamEvent;
import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.eclipse.milo.opcua.stack.core.security.FileBasedTrustListManager;

/**
 * Readings from an upstream OPC UA server ({@code pqsign sensor --source opcua:…}): every value
 * change of the subscribed nodes, and every outage, lost value and refused node, as an upstream
 * reading text ({@code docs/formats/signed-reading.md}, "Upstream readings"). The texts are the
 * sensor's own statements ({@link #sensorStatements()}); the sensor signs them like any reading.
 *
 * <p>{@link #next()} never ends by itself: an unreachable upstream is a fact, and the source keeps
 * reconnecting until {@link #close()}.
 */
public final class UpstreamSource implements ReadingSource {
    /** Default capacity of the queue between the upstream and the signer, in readings. */
    public static final int DEFAULT_QUEUE = 10_000;

    /** Default queue size asked of the upstream server for each node. */
    public static final int DEFAULT_SERVER_QUEUE = 1000;

    /**
     * How to reach the upstream.
     *
     * @param dataDir where the sensor keeps its upstream client certificate and the upstream trust
     *     list ({@code DATA_DIR/upstream-pki}: {@code trusted/certs/} holds trusted server certificates)
     * @param name the sensor's name, for the client certificate's application URI
     * @param security the channel's security
     * @param credentials a user name and password, or null for an anonymous session; the source
     *     owns them: closing it wipes the password
     * @param trustServers upstream server certificates to add to the trust list (persisted)
     * @param queue capacity of the queue between the upstream and the signer
     * @param serverQueue the queue size asked of the server for each node
     */
    public record Config(
            Path dataDir,
            String name,
            ChannelSecurity security,
            UpstreamCredentials credentials,
            List<X509Certificate> trustServers,
            int queue,
            int serverQueue) {
        /**
         * Checks the settings.
         *
         * @param dataDir the sensor's data directory
         * @param name the sensor's name
         * @param security the channel's security
         * @param credentials a user name and password, or null
         * @param trustServers upstream server certificates to trust
         * @param queue capacity of the local queue, at least 1
         * @param serverQueue the server's queue size per node, at least 1
         */
        public Config {
            Objects.requireNonNull(dataDir, "dataDir");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(security, "security");
            trustServers = List.copyOf(trustServers);
            if (queue < 1 || serverQueue < 1) {
                throw new IllegalArgumentException("queue sizes must be positive");
            }
        }
    }

    private final FactQueue queue;
    private final UpstreamLink link;
    private final FileBasedTrustListManager trustList;
    private final ApplicationIdentity identity;
    private final UpstreamCredentials credentials;

    private UpstreamSource(UpstreamUri uri, Config config, Consumer<String> notices) throws IOException {
        Path pki = config.dataDir().resolve("upstream-pki");
        String appUri = "urn:pqsign:sensor:" + config.name() + ":upstream";
        this.identity = ApplicationIdentity.loadOrCreate(
                pki.resolve("upstream-client.pfx"),
                appUri,
                "pqsign sensor " + config.name() + " upstream client",
                "pqsign".toCharArray());
        this.trustList = FileBasedTrustListManager.createAndInitialize(pki);
        config.trustServers().forEach(trustList::addTrustedCertificate);
        this.queue = new FactQueue(config.queue());
        UpstreamCredentials cred = config.credentials();
        this.credentials = cred;
        this.link = new UpstreamLink(
                new UpstreamLink.Settings(
                        uri.endpoint(),
                        uri.nodes(),
                        config.security(),
                        identity,
                        appUri,
                        trustList,
                        cred == null ? null : cred.user(),
                        cred == null ? null : cred::password,
                        config.serverQueue()),
                queue,
                notices);
    }

    /**
     * Starts connecting to the upstream (returns at once; an outage is the first reading).
     *
     * @param uri the upstream and its nodes
     * @param config how to reach it
     * @param notices receives one line per outage, recovery and refused node
     * @return the source
     * @throws IOException if the client certificate or trust list cannot be loaded or created
     */
    public static UpstreamSource open(UpstreamUri uri, Config config, Consumer<String> notices) throws IOException {
        return new UpstreamSource(uri, config, notices);
    }

    /**
     * The sensor's upstream client certificate (for the upstream server's trust list).
     *
     * @return the certificate
     */
    public X509Certificate clientCertificate() {
        return identity.certificate();
    }

    @Override
    public String next() throws InterruptedException {
        UpstreamEvent e = queue.take();
        return e == null ? null : e.text();
    }

    @Override
    public boolean sensorStatements() {
        return true;
    }

    @Override
    public void close() throws IOException {
        queue.close();
        link.close();
        if (credentials != null) {
            credentials.destroy(); // no session is opened any more
        }
        trustList.close();
    }
}
