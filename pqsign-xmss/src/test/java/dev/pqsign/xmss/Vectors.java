package dev.pqsign.xmss;

import dev.pqsign.core.Hex;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Loads the reference-implementation vectors (flat JSON objects, one per line). */
final class Vectors {
    private static final Pattern FIELD = Pattern.compile("\"([a-z_0-9]+)\"\\s*:\\s*(\"([^\"]*+)\"|null|-?[0-9]+)");

    /** One vector line. */
    record Vector(
            String set,
            XmssParameterSet params,
            WotsDerivation derivation,
            byte[] seed,
            long index,
            byte[] msg,
            byte[] pk,
            byte[] pkWithOid,
            byte[] sig) {
        @Override
        public String toString() {
            return set + " (" + derivation.cliName() + ") index " + index;
        }
    }

    private Vectors() {}

    static List<Vector> load(String resource) {
        List<Vector> out = new ArrayList<>();
        try (InputStream in = Vectors.class.getResourceAsStream("/vectors/" + resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                Map<String, String> f = new LinkedHashMap<>();
                Matcher m = FIELD.matcher(line);
                while (m.find()) {
                    f.put(m.group(1), m.group(3) != null ? m.group(3) : m.group(2));
                }
                String set = f.get("set");
                String ourName = set.startsWith("CUSTOM-") ? "XMSSMT-" + set.substring("CUSTOM-".length()) : set;
                XmssParameterSet p = XmssParameterSet.byName(ourName)
                        .orElseThrow(() -> new IllegalStateException("vector names unknown set " + set));
                WotsDerivation d =
                        f.get("keygen").startsWith("rfc8391") ? WotsDerivation.RFC8391 : WotsDerivation.SP800_208;
                String pkOid = f.get("pk_with_oid");
                out.add(new Vector(
                        set,
                        p,
                        d,
                        Hex.decode(f.get("seed")),
                        Long.parseLong(f.get("index")),
                        Hex.decode(f.get("msg")),
                        Hex.decode(f.get("pk")),
                        pkOid == null || pkOid.equals("null") ? null : Hex.decode(pkOid),
                        Hex.decode(f.get("sig"))));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    static List<Vector> all() {
        List<Vector> all = new ArrayList<>(load("xmss-sp800-208-keygen.jsonl"));
        all.addAll(load("xmss-rfc8391-keygen.jsonl"));
        return all;
    }
}
