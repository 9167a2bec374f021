package dev.pqsign.console;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4): every line must be a
 * HELP, a TYPE or a sample of a family whose TYPE came first; label values must be escaped; no
 * series may appear twice; the text ends with a newline. Returns each sample's value keyed by
 * {@code name{label="value",...}} with labels sorted.
 */
final class PrometheusText {

    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") (.*)");
    private static final Pattern TYPE =
            Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(\\{(.*)\\})? (\\S+)( -?[0-9]+)?");
    private static final Pattern LABEL =
            Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"");
    private static final Pattern FLOAT =
            Pattern.compile("[-+]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?" + "|[-+]?Inf|NaN");

    private PrometheusText() {}

    static Map<String, Double> parse(String text) {
        if (!text.endsWith("\n")) {
            throw new IllegalArgumentException("exposition does not end with a newline");
        }
        Map<String, String> types = new HashMap<>();
        Set<String> helped = new HashSet<>();
        Map<String, Double> samples = new TreeMap<>();
        int n = 0;
        for (String line : text.split("\n", -1)) {
            n++;
            if (line.isEmpty()) {
                continue;
            }
            Matcher help = HELP.matcher(line);
            Matcher type = TYPE.matcher(line);
            Matcher sample = SAMPLE.matcher(line);
            if (help.matches()) {
                if (!helped.add(help.group(1))) {
                    throw new IllegalArgumentException("line " + n + ": second HELP for " + help.group(1));
                }
            } else if (type.matches()) {
                if (types.put(type.group(1), type.group(2)) != null) {
                    throw new IllegalArgumentException("line " + n + ": second TYPE for " + type.group(1));
                }
            } else if (line.startsWith("#")) {
                throw new IllegalArgumentException("line " + n + ": unknown comment: " + line);
            } else if (sample.matches()) {
                String name = sample.group(1);
                if (family(name, types) == null) {
                    throw new IllegalArgumentException("line " + n + ": sample of " + name + " before its TYPE");
                }
                if (!FLOAT.matcher(sample.group(4)).matches()) {
                    throw new IllegalArgumentException("line " + n + ": bad value " + sample.group(4));
                }
                Map<String, String> labels = new TreeMap<>();
                String body = sample.group(3);
                if (body != null && !body.isEmpty()) {
                    Matcher l = LABEL.matcher(body);
                    int pos = 0;
                    while (pos < body.length()) {
                        if (!l.find(pos) || l.start() != pos) {
                            throw new IllegalArgumentException("line " + n + ": bad labels " + body);
                        }
                        if (labels.put(l.group(1), l.group(2)) != null) {
                            throw new IllegalArgumentException("line " + n + ": label " + l.group(1) + " twice");
                        }
                        pos = l.end();
                        if (pos < body.length()) {
                            if (body.charAt(pos) != ',') {
                                throw new IllegalArgumentException("line " + n + ": bad labels " + body);
                            }
                            pos++;
                        }
                    }
                }
                StringBuilder key = new StringBuilder(name).append('{');
                labels.forEach((k, v) -> key.append(k).append("=\"").append(v).append("\","));
                if (!labels.isEmpty()) {
                    key.setLength(key.length() - 1);
                }
                key.append('}');
                if (samples.put(
                                key.toString(),
                                Double.parseDouble(sample.group(4).replace("Inf", "Infinity")))
                        != null) {
                    throw new IllegalArgumentException("line " + n + ": series " + key + " twice");
                }
            } else {
                throw new IllegalArgumentException("line " + n + ": not a sample: " + line);
            }
        }
        return samples;
    }

    /** The declared family a sample belongs to (histograms and counters add suffixes). */
    private static String family(String sample, Map<String, String> types) {
        if (types.containsKey(sample)) {
            return sample;
        }
        for (String suffix : new String[] {"_bucket", "_sum", "_count", "_created", "_total"}) {
            if (sample.endsWith(suffix)) {
                String f = sample.substring(0, sample.length() - suffix.length());
                if (types.containsKey(f)) {
                    return f;
                }
            }
        }
        return null;
    }
}
