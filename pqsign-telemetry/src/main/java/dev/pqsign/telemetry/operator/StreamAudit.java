package dev.pqsign.telemetry.operator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.keys.KeyChain;
import dev.pqsign.keys.PublicKeys;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.telemetry.ReadingMessage;
import dev.pqsign.telemetry.SkipNotice;
import dev.pqsign.x509.PqPublicKey;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Re-verifies an archived verdict stream (an operator's JSON Lines, docs/telemetry.md) from the
 * sensor's first public key alone: follows every key handover recorded in it, verifies every
 * reading's signature under the key of its generation, and recomputes what the operator reported
 * (gaps, duplicates, index reuse, readings of retired keys). Trusts nothing the stream says about
 * itself except the bytes that were signed.
 */
public final class StreamAudit {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** At most this many problems are kept in the report (all are counted). */
    public static final int MAX_PROBLEMS = 50;

    /**
     * The audit's findings. {@link #passed()} only if the whole history verifies.
     *
     * @param lines non-blank lines read
     * @param accepted readings whose signature verified under the key of their generation, first seen
     * @param duplicates readings seen again with the same signature
     * @param rejected lines that are not JSON objects, rejections without a signed reading, and readings that do
     *     not verify or were signed by a retired key after its handover
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
         * @param rejected lines that are not JSON objects, rejections without a signed reading, and readings that do
         *     not verify or were signed by a retired key after its handover
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
     * @param jsonl the operator's verdict lines; read to its end, not closed
     * @return the findings
     * @throws IOException if {@code jsonl} cannot be read
     */
    public static Report run(PqPublicKey firstKey, BufferedReader jsonl) throws IOException {
        Objects.requireNonNull(firstKey, "firstKey");
        StreamAudit a = new StreamAudit(firstKey);
        String line;
        while ((line = jsonl.readLine()) != null) {
            if (!line.isBlank()) {
                a.line(line);
            }
        }
        return a.report();
    }

    private void problem(String p) {
        if (problems.size() < MAX_PROBLEMS) {
            problems.add("line " + lines + ": " + p);
        }
    }

    private void line(String line) {
        lines++;
        JsonNode o;
        try {
            o = MAPPER.readTree(line);
        } catch (JsonProcessingException e) {
            rejected++;
            problem("not a JSON object");
            return;
        }
        if (!o.isObject()) {
            rejected++;
            problem("not a JSON object");
            return;
        }
        if ("HANDOVER".equals(text(o, "event"))) {
            handover(o);
        } else if ("GAP".equals(text(o, "verdict")) || "SKIPPED".equals(text(o, "verdict"))) {
            return; // recomputed from the indices and the signed skip notices, not taken from the operator
        } else if (o.hasNonNull("signature")) {
            reading(o);
        } else if (o.has("verdict")) {
            rejected++;
            problem(text(o, "verdict") + " without a signed reading (" + text(o, "reason") + ")");
        }
    }

    private void handover(JsonNode o) {
        String b64 = text(o, "record");
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

    private void reading(JsonNode o) {
        String keyId = text(o, "key_id");
        String set = text(o, "parameter_set");
        String reading = text(o, "reading");
        JsonNode idx = o.get("index");
        KeyUse k = keyId == null ? null : keys.get(keyId);
        if (k == null) {
            rejected++;
            problem("reading of key " + keyId + ", which the chain from the first key never reached");
            return;
        }
        if (set == null || reading == null || idx == null || !idx.canConvertToLong() || idx.asLong() < 0) {
            rejected++;
            problem("reading line lacks its parameter set, reading or index");
            return;
        }
        long index = idx.asLong();
        byte[] sig;
        try {
            sig = Base64.getDecoder().decode(text(o, "signature"));
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

    private static String text(JsonNode o, String field) {
        JsonNode n = o.get(field);
        return n == null || n.isNull() ? null : n.asText();
    }
}
