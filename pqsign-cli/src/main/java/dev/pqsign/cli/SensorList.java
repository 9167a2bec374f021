package dev.pqsign.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.operator.SensorTarget;
import dev.pqsign.telemetry.operator.DeviceCaTrust;
import dev.pqsign.x509.PqPublicKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The sensors one {@code pqsign operator --sensors FILE} watches: a JSON file (format in
 * {@code docs/formats/operator-sensors.md}) read with Jackson. Relative paths in it are resolved
 * against the file's directory.
 */
final class SensorList {
    private SensorList() {}

    /** Largest sensors file read. */
    static final int MAX_FILE_BYTES = 1 << 20;

    /** Most sensors one operator watches. */
    static final int MAX_SENSORS = 1000;

    /** The {@code security} values {@code TelemetrySupport.security} knows. */
    private static final Set<String> SECURITY = Set.of("none", "sign-encrypt", "basic256sha256");

    private static final Set<String> KEYS =
            Set.of("name", "url", "pub", "params", "cert", "trust", "security", "trust_server");

    /**
     * Reads and checks the file; any problem is a one-line usage error naming the file. Every
     * sensor given by certificate must have a first chain valid now.
     */
    static List<SensorTarget> read(Path file) {
        return read(file, null);
    }

    /**
     * As {@link #read(Path)} for an operator whose chains directory is {@code chainsDir}: a sensor's
     * first chain valid now is recorded there as enrolled, and one that expired since it was
     * enrolled there is still trusted ({@link TelemetryKeys#certifiedKey(Path, Path, Path)}).
     */
    static List<SensorTarget> read(Path file, Path chainsDir) {
        byte[] bytes = KeyFiles.readSmall(file, "sensors file");
        if (bytes.length > MAX_FILE_BYTES) {
            throw CliException.usage(file + ": larger than " + MAX_FILE_BYTES + " bytes");
        }
        JsonNode root;
        try {
            root = new ObjectMapper()
                    .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                    .readTree(new String(bytes, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw CliException.usage(file + ": not valid JSON: " + oneLine(e.getOriginalMessage()));
        }
        if (root == null
                || !root.isObject()
                || !root.has("sensors")
                || !root.get("sensors").isArray()
                || root.size() != 1) {
            throw CliException.usage(file + ": expected {\"sensors\": [ … ]}");
        }
        JsonNode sensors = root.get("sensors");
        if (sensors.isEmpty() || sensors.size() > MAX_SENSORS) {
            throw CliException.usage(file + ": needs 1.." + MAX_SENSORS + " sensors, has " + sensors.size());
        }
        Path base = file.toAbsolutePath().getParent();
        List<SensorTarget> targets = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < sensors.size(); i++) {
            JsonNode s = sensors.get(i);
            String where = file + ": sensor " + (i + 1);
            if (!s.isObject()) {
                throw CliException.usage(where + ": not an object");
            }
            for (Iterator<String> it = s.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!KEYS.contains(k)) {
                    throw CliException.usage(where + ": unknown key '" + SensorCommand.printable(k) + "'");
                }
            }
            String name = text(s, "name", where, true);
            if (name.isEmpty() || name.length() > 64 || !name.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
                throw CliException.usage(where + ": name must be 1..64 printable ASCII characters without spaces");
            }
            if (!names.add(name)) {
                throw CliException.usage(where + ": name '" + name + "' used twice");
            }
            where = file + ": sensor " + name;
            String url = text(s, "url", where, true);
            if (!url.startsWith("opc.tcp://")) {
                throw CliException.usage(where + ": url must start with opc.tcp://");
            }
            try {
                targets.add(target(s, name, url, base, where, chainsDir));
            } catch (CliException e) {
                // Problems found in the files a sensor names (key, certificate, parameter set) name
                // the sensors file and the sensor too, on one line whatever the value held.
                String m = e.getMessage();
                throw new CliException(e.exitCode, oneLine(m.startsWith(where) ? m : where + ": " + m), e);
            }
        }
        return targets;
    }

    /** The sensor {@code s} of the file: its pinned key, transport security and server certificates. */
    private static SensorTarget target(JsonNode s, String name, String url, Path base, String where, Path chainsDir) {
        String pub = text(s, "pub", where, false);
        String params = text(s, "params", where, false);
        String cert = text(s, "cert", where, false);
        String trust = text(s, "trust", where, false);
        PqPublicKey pinned;
        DeviceCaTrust deviceCa = null;
        String resumed = null;
        if ((pub == null) == (cert == null)) {
            throw CliException.usage(where + ": give exactly one of pub or cert (with trust)");
        }
        if (pub != null) {
            if (trust != null) {
                throw CliException.usage(where + ": trust goes with cert, not pub");
            }
            pinned = KeyFiles.publicKey(resolve(base, pub, where), params);
        } else {
            if (params != null || trust == null) {
                throw CliException.usage(where + ": cert needs trust (the root certificate) and no params");
            }
            TelemetryKeys.CertifiedKey certified =
                    TelemetryKeys.certifiedKey(resolve(base, cert, where), resolve(base, trust, where), chainsDir);
            pinned = certified.key();
            deviceCa = certified.deviceCa();
            resumed = certified.resumed();
        }
        String sec = text(s, "security", where, false);
        if (sec != null && !SECURITY.contains(sec.toLowerCase(Locale.ROOT))) {
            throw CliException.usage(where + ": security must be none or sign-encrypt, got '" + sec + "'");
        }
        TransportSecurity security = TelemetrySupport.security(sec == null ? "none" : sec);
        List<X509Certificate> serverCerts = new ArrayList<>();
        JsonNode ts = s.get("trust_server");
        if (ts != null) {
            if (!ts.isArray()) {
                throw CliException.usage(where + ": trust_server must be a list of certificate files");
            }
            for (JsonNode t : ts) {
                if (!t.isTextual()) {
                    throw CliException.usage(where + ": trust_server must be a list of certificate files");
                }
                serverCerts.add(TelemetrySupport.applicationCertificate(resolve(base, t.asText(), where)));
            }
            if (security == TransportSecurity.NONE && !serverCerts.isEmpty()) {
                throw CliException.usage(where + ": trust_server needs security sign-encrypt");
            }
        }
        return new SensorTarget(name, url, pinned, security, List.copyOf(serverCerts), deviceCa, resumed);
    }

    /** A file name of the sensors file, relative to its directory. */
    private static Path resolve(Path base, String name, String where) {
        try {
            return base.resolve(name);
        } catch (InvalidPathException e) {
            throw CliException.usage(where + ": '" + name + "' is not a valid file name");
        }
    }

    /** {@code m} with every control character (line breaks included) replaced by '?'. */
    private static String oneLine(String m) {
        StringBuilder sb = new StringBuilder(m.length());
        m.codePoints().forEach(c -> sb.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return sb.toString();
    }

    private static String text(JsonNode s, String key, String where, boolean required) {
        JsonNode v = s.get(key);
        if (v == null || v.isNull()) {
            if (required) {
                throw CliException.usage(where + ": missing '" + key + "'");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw CliException.usage(where + ": '" + key + "' must be a string");
        }
        return v.asText();
    }
}
