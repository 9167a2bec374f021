package dev.pqsign.cli;

import dev.pqsign.opcua.upstream.UpstreamCredentials;
import dev.pqsign.opcua.upstream.UpstreamSource;
import dev.pqsign.opcua.upstream.UpstreamUri;
import dev.pqsign.telemetry.upstream.ChannelSecurity;
import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The checked options of {@code pqsign sensor --source opcua:…}: the upstream and its nodes, the
 * channel's security, the credentials file (read here, once; its content is never shown; the password
 * is wiped when the sensor ends) and the trusted upstream certificates. Every mistake is a usage error of one line, before the key is opened.
 */
final class UpstreamOptions {
    private final UpstreamUri uri;
    private final ChannelSecurity security;
    private final UpstreamCredentials credentials;
    private final List<X509Certificate> trust;

    private UpstreamOptions(
            UpstreamUri uri, ChannelSecurity security, UpstreamCredentials credentials, List<X509Certificate> trust) {
        this.uri = uri;
        this.security = security;
        this.credentials = credentials;
        this.trust = trust;
    }

    static UpstreamOptions check(
            String source, String security, Path credentialsFile, List<Path> trustFiles, Double rate, Long seed) {
        if (rate != null) {
            throw CliException.usage("--rate applies to --source sim only (upstream values are signed as they change)");
        }
        if (seed != null) {
            throw CliException.usage("--seed applies to --source sim only");
        }
        UpstreamUri uri;
        try {
            uri = UpstreamUri.parse(source);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--source " + e.getMessage());
        }
        ChannelSecurity sec = switch (security.toLowerCase(Locale.ROOT)) {
            case "none" -> ChannelSecurity.NONE;
            case "sign" -> ChannelSecurity.SIGN;
            case "sign-encrypt" -> ChannelSecurity.SIGN_AND_ENCRYPT;
            default ->
                throw CliException.usage("--source-security must be none, sign or sign-encrypt, got '"
                        + SensorCommand.printable(security) + "'");
        };
        if (sec == ChannelSecurity.NONE && !trustFiles.isEmpty()) {
            throw CliException.usage("--source-trust needs --source-security sign or sign-encrypt");
        }
        UpstreamCredentials cred = null;
        if (credentialsFile != null) {
            try {
                cred = UpstreamCredentials.read(credentialsFile);
            } catch (IOException e) {
                throw CliException.usage("--source-credentials: cannot read " + credentialsFile + ": "
                        + PqsignCli.oneLine(String.valueOf(e.getMessage())));
            } catch (IllegalArgumentException e) {
                throw CliException.usage("--source-credentials: " + e.getMessage());
            }
        }
        List<X509Certificate> trust = trustFiles.stream()
                .map(TelemetrySupport::applicationCertificate)
                .toList();
        return new UpstreamOptions(uri, sec, cred, trust);
    }

    /**
     * Whether a password would go over a channel without security: to a server nobody authenticated,
     * and in the clear unless the server's user token policy encrypts it.
     */
    boolean passwordInTheClear() {
        return credentials != null && security == ChannelSecurity.NONE;
    }

    /** Zeroes the password (the source does it when it closes; this covers a run that never opened it). */
    void wipe() {
        if (credentials != null) {
            credentials.destroy();
        }
    }

    /** Whether the channel is secured (the upstream must then trust the sensor's client certificate). */
    boolean secured() {
        return security != ChannelSecurity.NONE;
    }

    UpstreamSource open(Path dataDir, String name, Consumer<String> notices) {
        try {
            return UpstreamSource.open(
                    uri,
                    new UpstreamSource.Config(
                            dataDir,
                            name,
                            security,
                            credentials,
                            trust,
                            UpstreamSource.DEFAULT_QUEUE,
                            UpstreamSource.DEFAULT_SERVER_QUEUE),
                    notices);
        } catch (IOException e) {
            throw CliException.usage("--source: cannot set up the upstream client certificate under " + dataDir + ": "
                    + PqsignCli.oneLine(String.valueOf(e.getMessage())));
        }
    }
}
