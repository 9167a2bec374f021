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

    /**
     * Renders {@code r} in the layout above.
     *
     * @param r the report
     * @return the JSON document
     */
    public static String toJson(BenchReport r) {
        StringBuilder b = new StringBuilder(8192);
        b.append("{\n\"results\":[");
        sep(b, r.results().size(), i -> {
            BenchReport.Result x = r.results().get(i);
            row(b, x.scheme(), x.op(), x.impl())
                    .field("threads", x.threads())
                    .field("median_ms", x.stats().median())
                    .field("p99_ms", x.stats().p99())
                    .field("max_ms", x.stats().max())
                    .field("mean_ms", x.stats().mean())
                    .field("n", x.stats().n())
                    .end();
        });
        b.append("],\n\"sizes\":[");
        sep(b, r.sizes().size(), i -> {
            BenchReport.Sizes s = r.sizes().get(i);
            new JsonObject(b)
                    .field("scheme", s.scheme())
                    .field("impl", s.impl())
                    .field("public_key_bytes", s.publicKeyBytes())
                    .field("private_key_bytes", s.privateKeyBytes())
                    .raw("state_bytes", s.stateBytes() < 0 ? "null" : Integer.toString(s.stateBytes()))
                    .field("signature_bytes_min", s.signatureMin())
                    .field("signature_bytes_max", s.signatureMax())
                    .end();
        });
        b.append("],\n\"working_set\":[");
        sep(b, r.workingSets().size(), i -> {
            BenchReport.WorkingSet w = r.workingSets().get(i);
            row(b, w.scheme(), w.op(), w.impl()).field("bytes", w.bytes()).end();
        });
        b.append("],\n\"working_set_note\":").append(str(r.workingSetNote()));
        b.append(",\n\"hash_counts\":[");
        sep(b, r.hashCounts().size(), i -> {
            BenchReport.HashCount h = r.hashCounts().get(i);
            new JsonObject(b)
                    .field("scheme", h.scheme())
                    .field("op", h.op())
                    .field("n", h.n())
                    .field("calls_mean", h.callsMean())
                    .field("sha256_compressions_mean", h.compressionsMean())
                    .field("sha256_compressions_max", h.compressionsMax())
                    .end();
        });
        b.append("],\n\"hash_counts_note\":").append(str(r.hashCountNote()));
        b.append(",\n\"allocation\":[");
        sep(b, r.results().size(), i -> {
            BenchReport.Result x = r.results().get(i);
            row(b, x.scheme(), x.op(), x.impl())
                    .field("threads", x.threads())
                    .raw("bytes_per_op_median", x.allocatedBytes() < 0 ? "null" : Long.toString(x.allocatedBytes()))
                    .end();
        });
        b.append("],\n\"opcua\":[");
        sep(b, r.opcua().size(), i -> {
            BenchReport.OpcuaRun o = r.opcua().get(i);
            StringBuilder samples = new StringBuilder("[");
            for (int k = 0; k < o.endToEndSamplesMs().size(); k++) {
                samples.append(k == 0 ? "" : ",")
                        .append(num(o.endToEndSamplesMs().get(k)));
            }
            new JsonObject(b)
                    .field("link", o.link())
                    .field("scheme", o.scheme())
                    .field("readings", o.readings())
                    .field("accepted", o.accepted())
                    .field("signature_bytes", o.signatureBytes())
                    .raw("sign_ms", stats(o.sign()))
                    .raw("verify_ms", stats(o.verify()))
                    .raw("transfer_ms", stats(o.transfer()))
                    .raw("end_to_end_ms", stats(o.endToEnd()))
                    .raw("end_to_end_samples_ms", samples.append(']').toString())
                    .end();
        });
        b.append("],\n\"opcua_note\":").append(str(r.opcuaNote()));
        BenchReport.Machine m = r.machine();
        b.append(",\n\"machine\":");
        new JsonObject(b)
                .field("cores", m.cores())
                .field("cpu_model", m.cpuModel())
                .field("jvm", m.jvm())
                .field("os", m.os())
                .field("max_heap_bytes", m.maxHeapBytes())
                .field("load_average_start", m.loadStart())
                .field("load_average_end", m.loadEnd())
                .end();
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

    /** An object that starts with the fields every per-case row has: scheme, operation, implementation. */
    private static JsonObject row(StringBuilder b, String scheme, String op, String impl) {
        return new JsonObject(b).field("scheme", scheme).field("op", op).field("impl", impl);
    }

    /** Writes one JSON object's fields, in the order given, straight into the report. */
    private static final class JsonObject {
        private final StringBuilder b;
        private boolean first = true;

        JsonObject(StringBuilder b) {
            this.b = b;
            b.append('{');
        }

        /** {@code json} is written as it is: an object, an array or {@code null}. */
        JsonObject raw(String name, String json) {
            b.append(first ? "" : ",").append(str(name)).append(':').append(json);
            first = false;
            return this;
        }

        JsonObject field(String name, String value) {
            return raw(name, str(value));
        }

        JsonObject field(String name, long value) {
            return raw(name, Long.toString(value));
        }

        JsonObject field(String name, double value) {
            return raw(name, num(value));
        }

        void end() {
            b.append('}');
        }
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
