package dev.pqsign.haetae;

import dev.pqsign.haetae.internal.HaetaeKat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Helpers to generate, hash, parse and diff KAT response files in tests. */
final class KatFiles {
    private KatFiles() {}

    static String dir(HaetaeSampler s) {
        return s == HaetaeSampler.V1_2_0 ? "v1.2.0" : "v1.1.2";
    }

    static String fileName(HaetaeParameterSet p) {
        return "PQCsignKAT_" + p.katName() + ".rsp";
    }

    static byte[] generate(HaetaeParameterSet p, HaetaeSampler s, HaetaeEngine e, int records) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream(4 << 20);
        try (PrintStream ps = new PrintStream(bos, false, StandardCharsets.US_ASCII)) {
            HaetaeKat.write(p, s, e, records, ps);
        }
        return bos.toByteArray();
    }

    static String sha256(byte[] data) {
        try {
            return dev.pqsign.core.Hex.encode(
                    MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException ex) {
            throw new AssertionError(ex);
        }
    }

    static String resource(String path) {
        try (InputStream in = KatFiles.class.getResourceAsStream("kat/" + path)) {
            if (in == null) {
                throw new AssertionError("missing test resource kat/" + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException ex) {
            throw new AssertionError(ex);
        }
    }

    /** Expected SHA-256 of the official file. */
    static String officialSha256(HaetaeParameterSet p, HaetaeSampler s) {
        for (String line : resource(dir(s) + "/SHA256SUMS").split("\n")) {
            String[] parts = line.trim().split("\\s+");
            if (parts.length == 2 && parts[1].equals(fileName(p))) {
                return parts[0];
            }
        }
        throw new AssertionError("no checksum for " + fileName(p));
    }

    /** Records of an .rsp text: one map (field -> value) per record. */
    static List<Map<String, String>> parse(String text) {
        List<Map<String, String>> out = new ArrayList<>();
        Map<String, String> cur = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            int eq = line.indexOf(" = ");
            String k = line.substring(0, eq);
            String v = line.substring(eq + 3);
            if (k.equals("count")) {
                cur = new LinkedHashMap<>();
                out.add(cur);
            }
            cur.put(k, v);
        }
        return out;
    }

    /** Describes the first difference between two .rsp texts, or null if equal. */
    static String firstDifference(String expected, String actual) {
        if (expected.equals(actual)) {
            return null;
        }
        List<Map<String, String>> e = parse(expected);
        List<Map<String, String>> a = parse(actual);
        for (int i = 0; i < Math.min(e.size(), a.size()); i++) {
            for (Map.Entry<String, String> f : e.get(i).entrySet()) {
                String av = a.get(i).get(f.getKey());
                if (!f.getValue().equals(av)) {
                    String ev = f.getValue();
                    int pos = 0;
                    while (av != null && pos < Math.min(ev.length(), av.length()) && ev.charAt(pos) == av.charAt(pos)) {
                        pos++;
                    }
                    return "record " + i + " field '" + f.getKey() + "' differs at hex char " + pos
                            + " (expected length " + ev.length() + ", actual " + (av == null ? "missing" : av.length())
                            + ")";
                }
            }
        }
        if (e.size() != a.size()) {
            return "record count differs: expected " + e.size() + ", actual " + a.size();
        }
        return "texts differ outside the record fields (header or whitespace)";
    }

    /** The full official file if the shared vector directory is present (for better diagnostics). */
    static String officialFullIfPresent(HaetaeParameterSet p, HaetaeSampler s) {
        Path f = Path.of(
                System.getProperty("pqsign.haetae.vectors", "/work/shared/vectors/haetae"), dir(s), fileName(p));
        try {
            return Files.isRegularFile(f) ? Files.readString(f, StandardCharsets.US_ASCII) : null;
        } catch (IOException ex) {
            return null;
        }
    }
}
