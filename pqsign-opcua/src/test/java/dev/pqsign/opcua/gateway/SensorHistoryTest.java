package dev.pqsign.opcua.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.opcua.gateway.HistoryFormat.Entry;
import dev.pqsign.telemetry.KeyId;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SensorHistoryTest {

    @TempDir
    Path dir;

    private static final KeyId KEY = KeyId.of(new byte[32]);

    private static List<Entry> all(SensorHistory h) throws IOException {
        List<Entry> out = new ArrayList<>();
        h.read(0, Long.MIN_VALUE, (e, n) -> out.add(e));
        return out;
    }

    private static Instant t(long i) {
        return Instant.ofEpochSecond(1_800_000_000L + i);
    }

    @Test
    void append_reopen_keepsEveryEntryInOrder_andRefusesAnIndexStoredBefore() throws Exception {
        try (SensorHistory h = SensorHistory.open(dir, "s1", 1000, 1 << 20)) {
            for (int i = 0; i < 10; i++) {
                assertTrue(h.append(t(i), t(i), KEY, i, "v" + i).isPresent());
            }
        }
        try (SensorHistory h = SensorHistory.open(dir, "s1", 1000, 1 << 20)) {
            List<Entry> e = all(h);
            assertEquals(10, e.size());
            assertEquals("v9", e.get(9).reading());
            assertEquals(10, e.get(9).sequence());
            assertTrue(h.append(t(20), t(20), KEY, 9, "again").isEmpty(), "index 9 is stored");
            assertTrue(h.append(t(21), t(21), KEY, 10, "v10").isPresent());
        }
    }

    @Test
    void tornLastAppend_isCutOff_theRestStays() throws Exception {
        Path file;
        try (SensorHistory h = SensorHistory.open(dir, "s1", 1000, 1 << 20)) {
            for (int i = 0; i < 5; i++) {
                h.append(t(i), t(i), KEY, i, "value-" + i);
            }
        }
        try (Stream<Path> s = Files.list(dir)) {
            file = s.findFirst().orElseThrow();
        }
        long size = Files.size(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size - 3); // the kernel wrote only part of the last entry
        }
        try (SensorHistory h = SensorHistory.open(dir, "s1", 1000, 1 << 20)) {
            assertEquals(4, all(h).size());
            h.append(t(9), t(9), KEY, 9, "after");
            assertEquals("after", all(h).get(4).reading());
        }
    }

    @Test
    void bounds_keepBetweenHalfAndAllOfTheEntries_inAtMostTwoSegments() throws Exception {
        try (SensorHistory h = SensorHistory.open(dir, "s1", 100, 1 << 20)) {
            for (int i = 0; i < 1000; i++) {
                h.append(t(i), t(i), KEY, i, "r" + i);
                List<Entry> e = all(h);
                assertTrue(e.size() <= 100, "at most the bound: " + e.size());
                assertTrue(i < 50 || e.size() >= 50, "at least half once filled: " + e.size());
                assertEquals("r" + i, e.get(e.size() - 1).reading());
            }
            try (Stream<Path> s = Files.list(dir)) {
                assertEquals(2, s.count());
            }
        }
    }

    @Test
    void historyOfAnotherSensor_refusedWithTheFileNamed() throws Exception {
        try (SensorHistory h = SensorHistory.open(dir, "s1", 100, 1 << 20)) {
            h.append(t(1), t(1), KEY, 1, "x");
        }
        Path file;
        try (Stream<Path> s = Files.list(dir)) {
            file = s.findFirst().orElseThrow();
        }
        Path other = dir.resolve(
                SensorHistory.fileId("s2") + file.getFileName().toString().substring(32));
        Files.move(file, other);
        IOException e = assertThrows(IOException.class, () -> SensorHistory.open(dir, "s2", 100, 1 << 20));
        assertTrue(e.getMessage().contains(other.toString()) && e.getMessage().contains("'s1'"), e.getMessage());
    }
}
