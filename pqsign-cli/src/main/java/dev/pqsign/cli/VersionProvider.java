package dev.pqsign.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** Reads the version Maven wrote into pqsign-version.properties. */
final class VersionProvider implements CommandLine.IVersionProvider {
    static String version() {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("/pqsign-version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        return p.getProperty("version", "unknown");
    }

    @Override
    public String[] getVersion() {
        return new String[] {"pqsign " + version() + " (Java " + Runtime.version() + ")"};
    }
}
