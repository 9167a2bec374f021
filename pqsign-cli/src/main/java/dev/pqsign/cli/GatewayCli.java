package dev.pqsign.cli;

import dev.pqsign.opcua.gateway.GatewaySecurity;
import dev.pqsign.opcua.gateway.GatewayServer;
import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** {@code pqsign operator --serve}: the gateway's options checked, the gateway started and announced. */
final class GatewayCli {
    private GatewayCli() {}

    /** Starts the gateway of {@code op}'s {@code --serve} options for its sensors; one line on any problem. */
    static GatewayServer start(OperatorCommand op) {
        Set<GatewaySecurity> modes = EnumSet.noneOf(GatewaySecurity.class);
        for (String m : op.serveSecurity) {
            try {
                modes.add(GatewaySecurity.parse(m));
            } catch (IllegalArgumentException e) {
                throw CliException.usage("--serve-security: " + e.getMessage());
            }
        }
        if (modes.isEmpty()) {
            modes.add(GatewaySecurity.NONE);
        }
        if (!op.serveTrustClient.isEmpty() && modes.equals(EnumSet.of(GatewaySecurity.NONE))) {
            throw CliException.usage("--serve-trust-client needs --serve-security sign or sign-encrypt");
        }
        if (op.serveHistory < 0) {
            throw CliException.usage("--serve-history must be 0 (none) or at least 2, got " + op.serveHistory);
        }
        if (op.serveHistoryMib < 1 || op.serveHistoryMib > 1 << 20) {
            throw CliException.usage("--serve-history-mib must be 1..1048576, got " + op.serveHistoryMib);
        }
        List<X509Certificate> clients = op.serveTrustClient.stream()
                .map(TelemetrySupport::applicationCertificate)
                .toList();
        Path dir = op.dataDir.resolve("gateway");
        GatewayServer g;
        try {
            g = GatewayServer.start(
                    GatewayServer.Config.serve(
                            op.serve, dir, modes, clients, op.serveHistory, op.serveHistoryMib << 20),
                    op.sensorNames());
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--serve: " + e.getMessage());
        } catch (IOException e) {
            throw CliException.usage("--serve " + op.serve + ": " + e.getMessage());
        }
        op.info().printf("serving %s%n", g.endpointUrl());
        if (!modes.equals(EnumSet.of(GatewaySecurity.NONE))) {
            try {
                Path exported = TelemetrySupport.exportApplicationCertificate(
                        g.applicationCertificate(), dir, "gateway-application.der");
                op.info().printf("gateway application certificate (give to the clients' trust lists): %s%n", exported);
            } catch (IOException e) {
                g.close();
                throw CliException.usage("--serve: cannot export the application certificate: " + e.getMessage());
            }
        }
        op.info().flush();
        return g;
    }
}
