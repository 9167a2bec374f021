package dev.pqsign.opcua.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.pqsign.opcua.gateway.HistoryFormat.Entry;
import dev.pqsign.opcua.gateway.HistoryFormat.Header;
import dev.pqsign.telemetry.KeyId;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class HistoryFormatTest {

    @Test
    void header_workedExample_matchesDocument() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "formats", "gateway-history.md"));
        String hex = doc.substring(doc.indexOf("<!-- example-hex -->") + 20, doc.indexOf("<!-- /example-hex -->"))
                .strip();
        byte[] h = HistoryFormat.header(new Header("s1", 1, 1));
        assertEquals(hex, HexFormat.of().formatHex(h));
        assertEquals(new Header("s1", 1, 1), HistoryFormat.decodeHeader(h));
    }

    @Test
    void header_anyFlippedByte_refused() {
        byte[] h = HistoryFormat.header(new Header("sensor-7", 3, 40));
        for (int i = 0; i < h.length; i++) {
            byte[] bad = h.clone();
            bad[i] ^= 0x01;
            assertNull(HistoryFormat.decodeHeader(bad), "byte " + i);
        }
        assertNull(HistoryFormat.decodeHeader(Arrays.copyOf(h, h.length - 1)));
        assertNull(HistoryFormat.decodeHeader(Arrays.copyOf(h, h.length + 1)));
    }

    @Test
    void entry_roundTrips_andAnyFlippedBodyByteIsRefused() {
        Entry e = new Entry(
                7,
                Instant.parse("2026-11-30T01:26:16.123456789Z"),
                Instant.parse("2026-11-30T01:26:16.200Z"),
                KeyId.of(new byte[32]),
                41,
                "21.5,temp=3 °C");
        byte[] b = HistoryFormat.encode(e);
        ByteBuffer prefix = ByteBuffer.wrap(b, 0, HistoryFormat.ENTRY_PREFIX).slice();
        int n = HistoryFormat.bodyLength(prefix);
        assertEquals(b.length - HistoryFormat.ENTRY_PREFIX, n);
        byte[] body = Arrays.copyOfRange(b, HistoryFormat.ENTRY_PREFIX, b.length);
        Entry back = HistoryFormat.decodeBody(body, prefix.getInt(4));
        assertNotNull(back);
        assertEquals(e, back);
        for (int i = 0; i < body.length; i++) {
            byte[] bad = body.clone();
            bad[i] ^= 0x40;
            assertNull(HistoryFormat.decodeBody(bad, prefix.getInt(4)), "byte " + i);
        }
    }

    @Test
    void bodyLength_outOfBounds_refusedBeforeAllocation() {
        ByteBuffer p = ByteBuffer.allocate(8);
        p.putInt(0, HistoryFormat.MAX_BODY + 1);
        assertEquals(-1, HistoryFormat.bodyLength(p));
        p.putInt(0, -1);
        assertEquals(-1, HistoryFormat.bodyLength(p));
        p.putInt(0, HistoryFormat.BODY_FIXED);
        assertEquals(-1, HistoryFormat.bodyLength(p), "a reading is at least one byte");
    }
}
