package dev.pqsign.telemetry;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pqsign.core.Hex;
import dev.pqsign.telemetry.internal.IsoInstant;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Base64;
import java.util.Objects;

/**
 * Writes {@link VerdictEvent}s as JSON Lines (one object per line, UTF-8), flushed after every line
 * so that a historian tailing the file sees each verdict as it happens. Keys are documented in
 * {@code docs/telemetry.md}; every line carries what is needed to verify the reading again offline
 * (parameter set, key id, index, reading, base64 signature). Any write error is thrown. Thread-safe.
 */
public final class VerdictJsonl implements AutoCloseable {

    private static final ObjectMapper MAPPER =
            new ObjectMapper().configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
    private static final JsonFactory FACTORY = MAPPER.getFactory();

    private final Writer out;
    /** The byte stream under {@link #out} when there is one: verdict lines go to it directly. */
    private final OutputStream bytes;

    private final boolean closeTarget;

    /**
     * A writer of lines to a byte stream.
     *
     * @param out where lines go (UTF-8)
     * @param closeTarget whether {@link #close()} closes {@code out} (not for standard output)
     */
    public VerdictJsonl(OutputStream out, boolean closeTarget) {
        this.bytes = Objects.requireNonNull(out, "out");
        this.out = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        this.closeTarget = closeTarget;
    }

    /**
     * A writer appending lines to {@code file} (created if missing). A last line that a crash or a
     * full disk left without its newline is cut off first and kept in {@code FILE.torn} (appended),
     * so the next line does not run on into it and every line of the file is a whole JSON object.
     * The verdict on the cut line was never confirmed written, so the operator reports it again.
     *
     * @param file the JSON Lines file
     * @param notice told, in one line, when a torn line was cut off
     * @return the writer (closing it closes the file)
     * @throws IOException if the file cannot be read, repaired or opened
     */
    public static VerdictJsonl appendingTo(Path file, java.util.function.Consumer<String> notice) throws IOException {
        long cut = cutTornLine(file);
        if (cut > 0) {
            notice.accept("cut a torn last line of " + cut + " bytes off " + file + " (kept in " + file + ".torn)");
        }
        OutputStream o = Files.newOutputStream(
                file, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        return new VerdictJsonl(new java.io.BufferedOutputStream(o), true);
    }

    /** Cuts the bytes after the last newline off {@code file}, keeping them in {@code file.torn}; returns how many. */
    private static long cutTornLine(Path file) throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return 0;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            if (size == 0 || lastByte(ch, size - 1) == '\n') {
                return 0;
            }
            long start = size - 1;
            ByteBuffer b = ByteBuffer.allocate(8192);
            long lineStart = 0;
            search:
            while (start >= 0) {
                long from = Math.max(0, start - b.capacity() + 1);
                b.clear().limit((int) (start - from + 1));
                ch.read(b, from);
                for (int i = b.position() - 1; i >= 0; i--) {
                    if (b.get(i) == '\n') {
                        lineStart = from + i + 1;
                        break search;
                    }
                }
                start = from - 1;
            }
            ByteBuffer torn = ByteBuffer.allocate((int) Math.min(size - lineStart, 1 << 20));
            ch.read(torn, lineStart);
            torn.flip();
            try (FileChannel keep = FileChannel.open(
                    file.resolveSibling(file.getFileName() + ".torn"),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND,
                    StandardOpenOption.WRITE)) {
                while (torn.hasRemaining()) {
                    keep.write(torn);
                }
                keep.write(ByteBuffer.wrap(new byte[] {'\n'}));
                keep.force(true);
            }
            ch.truncate(lineStart);
            ch.force(true);
            return size - lineStart;
        }
    }

    private static int lastByte(FileChannel ch, long at) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        ch.read(one, at);
        return one.get(0);
    }

    /**
     * A writer of lines to a character stream.
     *
     * @param out where lines go; a {@link PrintWriter}'s swallowed errors are detected and thrown
     * @param closeTarget whether {@link #close()} closes {@code out} (not for standard output)
     */
    public VerdictJsonl(Writer out, boolean closeTarget) {
        this.out = Objects.requireNonNull(out, "out");
        this.bytes = null;
        this.closeTarget = closeTarget;
    }

    /**
     * Writes and flushes one line.
     *
     * @param e the verdict event
     * @throws IOException if the line cannot be written
     */
    public synchronized void write(VerdictEvent e) throws IOException {
        if (e.handover() != null) {
            out.write(MAPPER.writeValueAsString(handoverJson(e)));
            out.write('\n');
            out.flush();
        } else if (bytes != null) {
            // One line per reading: written field by field straight to the bytes, without building
            // a tree, a String or a char encoder first (the same text as toJson gives).
            try (JsonGenerator g = FACTORY.createGenerator(bytes, JsonEncoding.UTF8)) {
                g.disable(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM); // one flush per line, below
                writeVerdict(g, e);
            }
            bytes.write('\n');
            bytes.flush();
        } else {
            try (JsonGenerator g = FACTORY.createGenerator(out)) {
                g.disable(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM);
                writeVerdict(g, e);
            }
            out.write('\n');
            out.flush();
        }
        if (out instanceof PrintWriter pw && pw.checkError()) {
            throw new IOException("write failed");
        }
    }

    /** The object {@link #toJson} builds for a verdict event without a handover, streamed. */
    private static void writeVerdict(JsonGenerator g, VerdictEvent e) throws IOException {
        Verdict v = e.verdict();
        SignedRecord r = e.record();
        g.writeStartObject();
        g.writeStringField("sensor", e.sensor());
        if (e.keyId() == null) {
            g.writeNullField("key_id");
        } else {
            g.writeStringField("key_id", e.keyId().hex());
        }
        if (v.index() < 0) {
            g.writeNullField("index");
        } else {
            g.writeNumberField("index", v.index());
        }
        g.writeStringField("verdict", e.verdictWord());
        if (v.accepted()) {
            g.writeNullField("reason");
        } else {
            g.writeStringField("reason", v.reason().name());
        }
        g.writeStringField("detail", v.detail());
        if (r == null) {
            g.writeNullField("reading");
        } else {
            g.writeStringField("reading", r.reading().reading());
        }
        g.writeStringField("received_at", IsoInstant.format(e.receivedAt()));
        if (r == null) {
            g.writeNullField("source_time");
        } else {
            g.writeStringField("source_time", IsoInstant.format(r.sourceTime()));
            g.writeStringField("parameter_set", r.parameterSetName());
            g.writeFieldName("signature");
            g.writeBinary(r.reading().signature());
            g.writeNumberField("sequence", r.sequence());
            g.writeNumberField("latency_ms", e.wallLatencyNanos() / 1e6);
        }
        if (e.gap() != null) {
            g.writeNumberField("from_index", e.gap().from());
            g.writeNumberField("to_index", e.gap().to());
        }
        g.writeEndObject();
    }

    /**
     * Writes and flushes one key-state line (a verdict-free {@code event} line).
     *
     * @param e the key status event
     * @throws IOException if the line cannot be written
     */
    public synchronized void write(KeyStatusEvent e) throws IOException {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("event", e.kind().name());
        o.put("sensor", e.sensor());
        o.put("generation", e.generation());
        o.put("remaining", e.remaining());
        if (Double.isNaN(e.secondsLeft())) {
            o.putNull("seconds_left");
        } else {
            o.put("seconds_left", e.secondsLeft());
        }
        o.put("next_key_ready", e.nextKeyReady());
        o.put("alarm", e.kind() == KeyStatusEvent.Kind.KEY_ALARM);
        o.put("detail", e.detail());
        o.put("received_at", e.at().toString());
        out.write(MAPPER.writeValueAsString(o));
        out.write('\n');
        out.flush();
        if (out instanceof PrintWriter pw && pw.checkError()) {
            throw new IOException("write failed");
        }
    }

    /**
     * The JSON object of one event.
     *
     * @param e the verdict event
     * @return a new object, as {@link #write(VerdictEvent)} writes it
     */
    public static ObjectNode toJson(VerdictEvent e) {
        if (e.handover() != null) {
            return handoverJson(e);
        }
        ObjectNode o = MAPPER.createObjectNode();
        Verdict v = e.verdict();
        SignedRecord r = e.record();
        o.put("sensor", e.sensor());
        if (e.keyId() == null) {
            o.putNull("key_id");
        } else {
            o.put("key_id", e.keyId().hex());
        }
        if (v.index() < 0) {
            o.putNull("index");
        } else {
            o.put("index", v.index());
        }
        o.put("verdict", e.verdictWord());
        if (v.accepted()) {
            o.putNull("reason");
        } else {
            o.put("reason", v.reason().name());
        }
        o.put("detail", v.detail());
        if (r == null) {
            o.putNull("reading");
        } else {
            o.put("reading", r.reading().reading());
        }
        o.put("received_at", e.receivedAt().toString());
        if (r == null) {
            o.putNull("source_time");
        } else {
            o.put("source_time", r.sourceTime().toString());
            o.put("parameter_set", r.parameterSetName());
            o.put("signature", Base64.getEncoder().encodeToString(r.reading().signature()));
            o.put("sequence", r.sequence());
            o.put("latency_ms", e.wallLatencyNanos() / 1e6);
        }
        if (e.gap() != null) {
            o.put("from_index", e.gap().from());
            o.put("to_index", e.gap().to());
        }
        return o;
    }

    /**
     * A key handover as a verdict-free {@code event} line: what was received (the signed record in
     * base64, so an offline audit can follow the chain) and what the operator made of it.
     */
    private static ObjectNode handoverJson(VerdictEvent e) {
        HandoverCheck c = e.handover();
        ObjectNode o = MAPPER.createObjectNode();
        o.put("event", "HANDOVER");
        o.put("sensor", e.sensor());
        o.put("outcome", c.outcome().name());
        o.put("alarm", c.outcome().isAlarm());
        o.put("detail", c.detail());
        o.put("received_at", e.receivedAt().toString());
        if (c.handover() == null) {
            o.putNull("generation");
            o.putNull("key_id");
            o.putNull("record");
            return o;
        }
        var st = c.handover().statement();
        o.put("generation", st.sequence());
        o.put("key_id", Hex.encode(st.newKeyId()));
        o.put("parameter_set", st.newKey().parameterSet().setName());
        o.put("old_key_id", Hex.encode(st.oldKeyId()));
        o.put("handover_index", st.handoverIndex());
        o.put("issued_at", st.issuedAt().toString());
        o.put("record", Base64.getEncoder().encodeToString(c.handover().encode()));
        return o;
    }

    @Override
    public synchronized void close() throws IOException {
        out.flush();
        if (closeTarget) {
            out.close();
        }
    }
}
