package dev.pqsign.telemetry.operator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.keys.KeyChain;
import dev.pqsign.keys.PublicKeys;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.telemetry.ReadingMessage;
import dev.pqsign.telemetry.SkipNotice;
import dev.pqsign.telemetry.StrictJson;
import dev.pqsign.telemetry.internal.BoundedLines;
import dev.pqsign.x509.PqPublicKey;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * Re-verifies an archived verdict stream (an operator's JSON Lines, docs/telemetry.md) from the
 * sensor's first public key alone: follows every key handover recorded in it, verifies every
 * reading's signature under the key of its generation, and recomputes what the operator reported
 * (gaps, duplicates, index reuse, readings of retired keys). Trusts nothing the stream says about
 * itself except the bytes that were signed.
 *
 * <p>Reads the lines as strictly as docs/telemetry.md describes them: each line is one JSON object
 * ({@link StrictJson}: UTF-8, every key once, nothing after it) of a documented shape, a verdict
 * line ({@code verdict}) or an event line ({@code event}); the fields the audit uses have their
 * documented JSON types. Anything else is a rejected line with a problem naming it, and the audit
 * goes on with the next line.
 */
public final class StreamAudit {
    /** At most this many problems are kept in the report (all are counted). */
    public static final int MAX_PROBLEMS = 50;

    /**
     * The longest line read, in bytes: many times the longest line an operator writes (a reading of
     * 4,096 bytes escaped, the largest XMSS^MT signature or handover record in base64). A longer
     * line is rejected without being held in memory.
     */
    public static final int MAX_LINE_BYTES = 1 << 20;

    /** The {@code verdict} words of a verdict line (docs/telemetry.md). */
    private static final Set<String> VERDICTS =
            Set.of("ACCEPTED", "REJECTED", "DUPLICATE", "GAP", "INDEX_REUSE", "SKIPPED");

    /** The {@code event} kinds without a verdict: the key-state lines ({@code KeyStatusEvent.Kind}). */
    private static final Set<String> KEY_STATE_EVENTS = Set.of("KEY_OK", "KEY_WARNING", "KEY_ALARM");

    /** A field of a line that does not have its documented JSON type. */
    private static final class FieldProblem extends Exception {
        private static final long serialVersionUID = 1L;

        FieldProblem(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * The audit's findings. {@link #passed()} only if the whole history verifies.
     *
     * @param lines non-blank lines read
     * @param accepted readings whose signature verified under the key of their generation, first seen
     * @param duplicates readings seen again with the same signature
     * @param rejected lines that are not JSON objects of a documented shape (or not UTF-8, or too long),
     *     rejections without a signed reading, and readings that do not verify or were signed by a retired key
     *     after its handover
     * @param gaps indices missing between index 0 and a key's highest verified index (or its handover)
     * @param indexReuse indices a key signed twice with different content
     * @param handoversFollowed key handovers that moved the chain on
     * @param handoverAlarms key handovers that must not move trust, or could not be decoded
     * @param generation the chain's generation at the end
     * @param problems descriptions of the first {@value StreamAudit#MAX_PROBLEMS} problems, each naming its line
     */
    public record Report(
            long lines,
            long accepted,
            long duplicates,
            long rejected,
            long gaps,
            long indexReuse,
            long handoversFollowed,
            long handoverAlarms,
            long generation,
            List<String> problems) {
        /**
         * Copies the problems.
         *
         * @param lines non-blank lines read
         * @param accepted readings whose signature verified under the key of their generation, first seen
         * @param duplicates readings seen again with the same signature
         * @param rejected lines that are not JSON objects of a documented shape (or not UTF-8, or too long),
         *     rejections without a signed reading, and readings that do not verify or were signed by a retired
         *     key after its handover
         * @param gaps indices missing between index 0 and a key's highest verified index (or its handover)
         * @param indexReuse indices a key signed twice with different content
         * @param handoversFollowed key handovers that moved the chain on
         * @param handoverAlarms key handovers that must not move trust, or could not be decoded
         * @param generation the chain's generation at the end
         * @param problems descriptions of the first {@value StreamAudit#MAX_PROBLEMS} problems, each naming its line
         */
        public Report {
            problems = List.copyOf(problems);
        }

        /**
         * {@code true} if every reading verified, nothing is missing or reused, and every handover was followed.
         *
         * @return whether at least one reading was accepted and nothing was rejected, missing, reused or alarming
         */
        public boolean passed() {
            return accepted > 0 && rejected == 0 && gaps == 0 && indexReuse == 0 && handoverAlarms == 0;
        }
    }

    private static final class KeyUse {
        final PqPublicKey key;
        final ReadingVerifier.TrustedKey trusted;
        final TreeMap<Long, String> signatures = new TreeMap<>();
        /** Ranges the key's verified skip notices account for: first index → last index. */
        final TreeMap<Long, Long> skipped = new TreeMap<>();

        long retiredAt = -1;

        KeyUse(PqPublicKey key) {
            this.key = key;
            this.trusted = TrustedKeys.of(key);
        }
    }

    private KeyChain chain;
    private final Map<String, KeyUse> keys = new HashMap<>();
    private final List<String> problems = new ArrayList<>();
    private long lines;
    /** The number of the line being read (blank lines counted), for problems. */
    private long lineNumber;

    private long accepted;
    private long duplicates;
    private long rejected;
    private long indexReuse;
    private long followed;
    private long handoverAlarms;

    private StreamAudit(PqPublicKey firstKey) {
        chain = KeyChain.startingAt(firstKey);
        keys.put(Hex.encode(PublicKeys.keyId(firstKey)), new KeyUse(firstKey));
    }

    /**
     * Audits the lines of {@code jsonl} against the chain that starts at {@code firstKey}.
     *
     * @param firstKey the sensor's first public key (generation 0), trusted
     * @param jsonl the operator's verdict lines, UTF-8; read to its end, not closed
     * @return the findings
     * @throws IOException if {@code jsonl} cannot be read
     */
    public static Report run(PqPublicKey firstKey, InputStream jsonl) throws IOException {
        Objects.requireNonNull(firstKey, "firstKey");
        StreamAudit a = new StreamAudit(firstKey);
        BoundedLines in = new BoundedLines(jsonl, MAX_LINE_BYTES);
        while (in.next()) {
            a.lineNumber = in.number();
            if (in.tooLong()) {
                a.lines++;
                a.reject("longer than " + MAX_LINE_BYTES + " bytes; not read (a verdict line is far shorter)");
                continue;
            }
            byte[] line = in.line();
            if (!blank(line)) {
                a.line(line);
            }
        }
        return a.report();
    }

    /** Only JSON's white space (space, tab, carriage return). */
    private static boolean blank(byte[] line) {
        for (byte b : line) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    private void problem(String p) {
        if (problems.size() < MAX_PROBLEMS) {
            problems.add("line " + lineNumber + ": " + p);
        }
    }

    private void reject(String p) {
        rejected++;
        problem(p);
    }

    private void line(byte[] line) {
        lines++;
        JsonNode o;
        try {
            o = StrictJson.parse(line);
        } catch (StrictJson.Malformed e) {
            rejected++;
            if (problems.size() < MAX_PROBLEMS) {
                problems.add("line " + lineNumber + ", column " + e.column() + ": " + e.problem());
            }
            return;
        }
        if (!o.isObject()) {
            reject("not a JSON object");
            return;
        }
        try {
            String event = string(o, "event");
            String verdict = string(o, "verdict");
            if (event != null && verdict != null) {
                reject("both an event and a verdict: not a line the operator writes");
            } else if (event != null) {
                event(o, event);
            } else if (verdict != null) {
                verdict(o, verdict);
            } else {
                reject("neither an event nor a verdict line (no \"event\" or \"verdict\")");
            }
        } catch (FieldProblem e) {
            reject(e.getMessage());
        }
    }

    private void event(JsonNode o, String event) throws FieldProblem {
        if (event.equals("HANDOVER")) {
            handover(o);
        } else if (!KEY_STATE_EVENTS.contains(event)) {
            reject("unknown event '" + printable(event) + "'");
        } // a key-state line says what the operator saw of the sensor's key; nothing to re-verify
    }

    private void verdict(JsonNode o, String verdict) throws FieldProblem {
        if (!VERDICTS.contains(verdict)) {
            reject("unknown verdict '" + printable(verdict) + "'");
        } else if (verdict.equals("GAP") || verdict.equals("SKIPPED")) {
            // recomputed from the indices and the signed skip notices, not taken from the operator
        } else if (string(o, "signature") != null) {
            reading(o);
        } else {
            reject(verdict + " without a signed reading (" + printable(String.valueOf(string(o, "reason"))) + ")");
        }
    }

    private void handover(JsonNode o) throws FieldProblem {
        String b64 = string(o, "record");
        if (b64 == null) {
            handoverAlarms++;
            problem("handover event without its signed record");
            return;
        }
        SignedKeyHandover h;
        try {
            h = SignedKeyHandover.decode(Base64.getDecoder().decode(b64));
        } catch (IllegalArgumentException | KeyFormatException e) {
            handoverAlarms++;
            problem("undecodable handover record: " + e.getMessage());
            return;
        }
        KeyChain.Step step = chain.follow(h);
        if (step.outcome() == HandoverOutcome.FOLLOWED) {
            followed++;
            KeyUse old = keys.get(Hex.encode(h.statement().oldKeyId()));
            old.retiredAt = h.statement().handoverIndex();
            old.signatures.put(h.statement().handoverIndex(), "handover");
            keys.put(
                    Hex.encode(h.statement().newKeyId()),
                    new KeyUse(h.statement().newKey()));
            chain = step.chain();
        } else if (step.outcome() != HandoverOutcome.ALREADY_FOLLOWED) {
            handoverAlarms++;
            problem("handover to generation " + h.statement().sequence() + ": " + step.outcome());
        }
    }

    private void reading(JsonNode o) throws FieldProblem {
        String keyId = string(o, "key_id");
        String set = string(o, "parameter_set");
        String reading = string(o, "reading");
        long index = index(o);
        KeyUse k = keyId == null ? null : keys.get(keyId);
        if (k == null) {
            rejected++;
            problem("reading of key " + printable(String.valueOf(keyId))
                    + ", which the chain from the first key never reached");
            return;
        }
        if (set == null || reading == null) {
            rejected++;
            problem("reading line lacks its parameter set or reading");
            return;
        }
        byte[] sig;
        try {
            sig = Base64.getDecoder().decode(string(o, "signature"));
        } catch (IllegalArgumentException e) {
            rejected++;
            problem("index " + index + ": signature is not base64");
            return;
        }
        if (!set.equals(k.key.parameterSet().setName())) {
            rejected++;
            problem("index " + index + ": parameter set " + set + " is not the key's");
            return;
        }
        OptionalLong embedded = k.trusted.embeddedIndex().extract(sig);
        boolean valid = (embedded.isEmpty() || embedded.getAsLong() == index)
                && k.trusted
                        .verifier()
                        .verify(ReadingMessage.encode(set, index, reading.getBytes(StandardCharsets.UTF_8)), sig);
        if (!valid) {
            rejected++;
            problem("index " + index + " of key " + keyId.substring(0, 16) + "…: signature does not verify");
            return;
        }
        if (k.retiredAt >= 0 && index >= k.retiredAt) {
            rejected++;
            problem("index " + index + " signed by a key retired at index " + k.retiredAt);
            return;
        }
        String sigHex = Hex.encode(Objects.requireNonNull(sig));
        String earlier = k.signatures.putIfAbsent(index, sigHex);
        if (earlier == null) {
            accepted++;
            SkipNotice.parse(reading).filter(n -> n.to() < index).ifPresent(n -> k.skipped.put(n.from(), n.to()));
        } else if (earlier.equals(sigHex)) {
            duplicates++;
        } else {
            indexReuse++;
            problem("index " + index + " of key " + keyId.substring(0, 16) + "… signed twice with different content");
        }
    }

    private Report report() {
        long gaps = 0;
        for (Map.Entry<String, KeyUse> e : keys.entrySet()) {
            TreeMap<Long, String> s = e.getValue().signatures;
            if (s.isEmpty()) {
                continue;
            }
            long expected = 0; // every key's sequence starts at index 0, as the operator counts it
            for (long i : s.keySet()) {
                if (i > expected) {
                    gaps += missing(e.getKey(), e.getValue().skipped, expected, i - 1);
                }
                expected = i + 1;
            }
        }
        return new Report(
                lines,
                accepted,
                duplicates,
                rejected,
                gaps,
                indexReuse,
                followed,
                handoverAlarms,
                chain.current().generation(),
                problems);
    }

    /** The indices of {@code from..to} no skip notice accounts for, each run of them a problem. */
    private long missing(String keyHex, java.util.NavigableMap<Long, Long> skipped, long from, long to) {
        long count = 0;
        long next = from;
        while (next <= to) {
            Map.Entry<Long, Long> cover = skipped.floorEntry(next);
            if (cover != null && cover.getValue() >= next) {
                next = cover.getValue() + 1; // accounted for by a notice
                continue;
            }
            Long nextCover = skipped.higherKey(next);
            long end = nextCover == null ? to : Math.min(to, nextCover - 1);
            count += end - next + 1;
            problem("key " + keyHex.substring(0, 16) + "…: indices " + next + ".." + end + " missing");
            next = end + 1;
        }
        return count;
    }

    /** A string field: null if absent or JSON null, refused if of another type. */
    private static String string(JsonNode o, String field) throws FieldProblem {
        JsonNode n = o.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw new FieldProblem("\"" + field + "\" is not a string");
        }
        return n.textValue();
    }

    /** The {@code index} of a reading line: a whole number 0 … 2^63 − 1, as the operator writes it. */
    private static long index(JsonNode o) throws FieldProblem {
        JsonNode n = o.get("index");
        if (n == null || n.isNull()) {
            throw new FieldProblem("reading line lacks its index");
        }
        if (!n.isNumber()) {
            throw new FieldProblem("index is not a number");
        }
        if (!n.isIntegralNumber()) {
            throw new FieldProblem("index " + printable(n.asText()) + " is not a whole number");
        }
        if (!n.canConvertToLong() || n.longValue() < 0) {
            throw new FieldProblem("index " + printable(n.asText()) + " is out of range (0 … 2^63 − 1)");
        }
        return n.longValue();
    }

    /** {@code s} for a problem line: control characters replaced, at most 64 characters. */
    private static String printable(String s) {
        StringBuilder sb = new StringBuilder(Math.min(s.length(), 65));
        s.codePoints().limit(64).forEach(c -> sb.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        if (s.codePointCount(0, s.length()) > 64) {
            sb.append('…');
        }
        return sb.toString();
    }
}
