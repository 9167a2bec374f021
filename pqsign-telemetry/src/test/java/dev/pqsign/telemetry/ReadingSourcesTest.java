package dev.pqsign.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ReadingSourcesTest {

    @Test
    void format_typicalReading_is38AsciiBytesAndParses() {
        Instant t = Instant.parse("2026-11-30T01:26:16.123456789Z");
        String s = ReadingText.format(1503.274, t);
        assertEquals("1503.27,2026-11-30T01:26:16.123456789Z", s);
        assertEquals(38, s.getBytes(StandardCharsets.UTF_8).length);
        ReadingText.Parsed p = ReadingText.parse(s);
        assertEquals(1503.27, p.rpm(), 1e-9);
        assertEquals(t, p.timestamp());
    }

    @Test
    void format_wholeSecond_keepsNineFractionDigits() {
        assertEquals(
                "0.00,2026-11-30T01:26:16.000000000Z", ReadingText.format(0, Instant.parse("2026-11-30T01:26:16Z")));
    }

    @Test
    void parse_garbage_throwsIllegalArgument() {
        for (String g :
                new String[] {"", "abc", "1,2,3", "-5,2026-11-30T01:26:16Z", "NaN,2026-11-30T01:26:16Z", "1,x"}) {
            assertThrows(IllegalArgumentException.class, () -> ReadingText.parse(g), g);
        }
    }

    @Test
    void simulatedSensor_readingsNearNominal() throws Exception {
        Clock fixed = Clock.fixed(Instant.parse("2026-11-30T00:00:00Z"), ZoneOffset.UTC);
        SimulatedSpeedSensor s = new SimulatedSpeedSensor(1500, 5, 0, 42, fixed);
        double sum = 0;
        for (int i = 0; i < 200; i++) {
            ReadingText.Parsed p = ReadingText.parse(s.next());
            assertTrue(Math.abs(p.rpm() - 1500) < 50, "rpm " + p.rpm());
            sum += p.rpm();
        }
        assertEquals(1500, sum / 200, 2);
    }

    /** A real named pipe (mkfifo): the source blocks until the writer sends lines, ends when it closes. */
    @Test
    void lineSource_namedPipe_readsLinesAsWritten(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path fifo = dir.resolve("rpm.fifo");
        Process mk;
        try {
            mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (java.io.IOException e) {
            org.junit.jupiter.api.Assumptions.abort("mkfifo not available: " + e.getMessage());
            return;
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "mkfifo failed");
        Thread writer = new Thread(() -> {
            try (java.io.Writer w = java.nio.file.Files.newBufferedWriter(fifo, StandardCharsets.UTF_8)) {
                w.write("1500.00,2026-11-30T00:00:00.000000000Z\n");
                w.flush();
                w.write("1501.00,2026-11-30T00:00:01.000000000Z\n");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        writer.start();
        try (LineReadingSource src = LineReadingSource.open(fifo)) {
            assertEquals("1500.00,2026-11-30T00:00:00.000000000Z", src.next());
            assertEquals("1501.00,2026-11-30T00:00:01.000000000Z", src.next());
            assertNull(src.next());
        }
        writer.join();
    }

    @Test
    void lineSource_skipsBlankOverlongAndInvalidLines() throws Exception {
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        in.write("first\n\n   \n".getBytes(StandardCharsets.UTF_8));
        in.write("x".repeat(ReadingMessage.MAX_READING_BYTES + 10).getBytes(StandardCharsets.UTF_8));
        in.write('\n');
        in.write(new byte[] {(byte) 0xff, (byte) 0xfe, '\n'});
        in.write("second\r\nthird".getBytes(StandardCharsets.UTF_8));
        try (LineReadingSource src = new LineReadingSource(new ByteArrayInputStream(in.toByteArray()))) {
            assertEquals("first", src.next());
            assertEquals("second", src.next());
            assertEquals("third", src.next());
            assertNull(src.next());
            assertEquals(2, src.skipped());
        }
    }
}
