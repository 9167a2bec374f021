package dev.pqsign.bench.report;

/**
 * The report as JSON:
 * <pre>{"results":[{"scheme":"XMSSMT-SHA2_10/2_256","op":"keygen","impl":"pqsign","threads":2,
 *   "median_ms":..,"p99_ms":..,"max_ms":..,"mean_ms":..,"n":..}],
 *  "sizes":[{"scheme":..,"impl":..,"public_key_bytes":..,"private_key_bytes":..,"state_bytes":..|null,
 *   "signature_bytes_min":..,"signature_bytes_max":..}],
 *  "working_set":[{"scheme":"HAETAE-2","op":"keygen|sign|verify","impl":"pqsign|pqsign-compact","bytes":..}],
 *  "working_set_note":..|null,
 *  "hash_counts":[{"scheme":..,"op":"keygen|load|sign|verify","n":..,"calls_mean":..,
 *   "sha256_compressions_mean":..,"sha256_compressions_max":..}], "hash_counts_note":..|null,
 *  "allocation":[{"scheme":..,"op":..,"impl":..,"threads":..,"bytes_per_op_median":..}],
 *  "opcua":[{"link":"ethernet|5g","scheme":..,"readings":..,"accepted":..,"signature_bytes":..,
 *   "sign_ms":{"median":..,"p99":..,"max":..,"n":..},"verify_ms":{..},"transfer_ms":{..},"end_to_end_ms":{..},
 *   "end_to_end_samples_ms":[..]}],
 *  "opcua_note":..|null,
 *  "machine":{"cores":..,"cpu_model":..,"jvm":..,"os":..,"max_heap_bytes":..,"load_average_start":..,
 *   "load_average_end":..},
 *  "command":..,"started_utc":..,"seconds":..,"notes":[..]}</pre>
 * Numbers that are not finite are written as {@code null}.
 */
public final class JsonReport {
    private JsonReport() {}

    public static String toJson(BenchReport r) {
        StringBuilder b = new StringBuilder(8192);
        b.append("{\n\"results\":[");
        sep(b, r.results().size(), i -> {
            BenchReport.Result x = r.results().get(i);
            b.append("{\"scheme\":")
                    .append(str(x.scheme()))
                    .append(",\"op\":")
                    .append(str(x.op()))
                    .append(",\"impl\":")
                    .append(str(x.impl()))
                    .append(",\"threads\":")
                    .append(x.threads())
                    .append(",\"median_ms\":")
                    .append(num(x.stats().median()))
                    .append(",\"p99_ms\":")
                    .append(num(x.stats().p99()))
                    .append(",\"max_ms\":")
                    .append(num(x.stats().max()))
                    .append(",\"mean_ms\":")
                    .append(num(x.stats().mean()))
                    .append(",\"n\":")
                    .append(x.stats().n())
                    .append('}');
        });
        b.append("],\n\"sizes\":[");
        sep(b, r.sizes().size(), i -> {
            BenchReport.Sizes s = r.sizes().get(i);
            b.append("{\"scheme\":")
                    .append(str(s.scheme()))
                    .append(",\"impl\":")
                    .append(str(s.impl()))
                    .append(",\"public_key_bytes\":")
                    .append(s.publicKeyBytes())
                    .append(",\"private_key_bytes\":")
                    .append(s.privateKeyBytes())
                    .append(",\"state_bytes\":")
                    .append(s.stateBytes() < 0 ? "null" : Integer.toString(s.stateBytes()))
                    .append(",\"signature_bytes_min\":")
                    .append(s.signatureMin())
                    .append(",\"signature_bytes_max\":")
                    .append(s.signatureMax())
                    .append('}');
        });
        b.append("],\n\"working_set\":[");
        sep(b, r.workingSets().size(), i -> {
            BenchReport.WorkingSet w = r.workingSets().get(i);
            b.append("{\"scheme\":")
                    .append(str(w.scheme()))
                    .append(",\"op\":")
                    .append(str(w.op()))
                    .append(",\"impl\":")
                    .append(str(w.impl()))
                    .append(",\"bytes\":")
                    .append(w.bytes())
                    .append('}');
        });
        b.append("],\n\"working_set_note\":").append(str(r.workingSetNote()));
        b.append(",\n\"hash_counts\":[");
        sep(b, r.hashCounts().size(), i -> {
            BenchReport.HashCount h = r.hashCounts().get(i);
            b.append("{\"scheme\":")
                    .append(str(h.scheme()))
                    .append(",\"op\":")
                    .append(str(h.op()))
                    .append(",\"n\":")
                    .append(h.n())
                    .append(",\"calls_mean\":")
                    .append(num(h.callsMean()))
                    .append(",\"sha256_compressions_mean\":")
                    .append(num(h.compressionsMean()))
                    .append(",\"sha256_compressions_max\":")
                    .append(h.compressionsMax())
                    .append('}');
        });
        b.append("],\n\"hash_counts_note\":").append(str(r.hashCountNote()));
        b.append(",\n\"allocation\":[");
        sep(b, r.results().size(), i -> {
            BenchReport.Result x = r.results().get(i);
            b.append("{\"scheme\":")
                    .append(str(x.scheme()))
                    .append(",\"op\":")
                    .append(str(x.op()))
                    .append(",\"impl\":")
                    .append(str(x.impl()))
                    .append(",\"threads\":")
                    .append(x.threads())
                    .append(",\"bytes_per_op_median\":")
                    .append(x.allocatedBytes() < 0 ? "null" : Long.toString(x.allocatedBytes()))
                    .append('}');
        });
        b.append("],\n\"opcua\":[");
        sep(b, r.opcua().size(), i -> {
            BenchReport.OpcuaRun o = r.opcua().get(i);
            b.append("{\"link\":")
                    .append(str(o.link()))
                    .append(",\"scheme\":")
                    .append(str(o.scheme()))
                    .append(",\"readings\":")
                    .append(o.readings())
                    .append(",\"accepted\":")
                    .append(o.accepted())
                    .append(",\"signature_bytes\":")
                    .append(o.signatureBytes())
                    .append(",\"sign_ms\":")
                    .append(stats(o.sign()))
                    .append(",\"verify_ms\":")
                    .append(stats(o.verify()))
                    .append(",\"transfer_ms\":")
                    .append(stats(o.transfer()))
                    .append(",\"end_to_end_ms\":")
                    .append(stats(o.endToEnd()))
                    .append(",\"end_to_end_samples_ms\":[");
            for (int k = 0; k < o.endToEndSamplesMs().size(); k++) {
                b.append(k == 0 ? "" : ",").append(num(o.endToEndSamplesMs().get(k)));
            }
            b.append("]}");
        });
        b.append("],\n\"opcua_note\":").append(str(r.opcuaNote()));
        BenchReport.Machine m = r.machine();
        b.append(",\n\"machine\":{\"cores\":")
                .append(m.cores())
                .append(",\"cpu_model\":")
                .append(str(m.cpuModel()))
                .append(",\"jvm\":")
                .append(str(m.jvm()))
                .append(",\"os\":")
                .append(str(m.os()))
                .append(",\"max_heap_bytes\":")
                .append(m.maxHeapBytes())
                .append(",\"load_average_start\":")
                .append(num(m.loadStart()))
                .append(",\"load_average_end\":")
                .append(num(m.loadEnd()))
                .append('}');
        b.append(",\n\"command\":")
                .append(str(r.command()))
                .append(",\"started_utc\":")
                .append(str(r.startedUtc()))
                .append(",\"seconds\":")
                .append(num(r.seconds()))
                .append(",\"notes\":[");
        sep(b, r.notes().size(), i -> b.append(str(r.notes().get(i))));
        b.append("]\n}\n");
        return b.toString();
    }

    private static String stats(Stats s) {
        return "{\"median\":" + num(s.median()) + ",\"p99\":" + num(s.p99()) + ",\"max\":" + num(s.max()) + ",\"n\":"
                + s.n() + "}";
    }

    private static void sep(StringBuilder b, int n, java.util.function.IntConsumer each) {
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "\n" : ",\n");
            each.accept(i);
        }
    }

    /**
     * A finite number in plain notation, else {@code null}: 3 decimals from 1 up (large counts keep all
     * their integer digits), 6 significant digits below 1.
     */
    static String num(double d) {
        if (!Double.isFinite(d)) {
            return "null";
        }
        if (d == 0) {
            return "0";
        }
        java.math.BigDecimal b = new java.math.BigDecimal(d);
        b = Math.abs(d) >= 1 ? b.setScale(3, java.math.RoundingMode.HALF_EVEN) : b.round(new java.math.MathContext(6));
        return b.stripTrailingZeros().toPlainString();
    }

    static String str(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
