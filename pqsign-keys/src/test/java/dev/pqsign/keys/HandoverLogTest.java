package dev.pqsign.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.x509.PqPublicKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The handover log file on its own: real signed records of real keys, real files. */
class HandoverLogTest {
    private static final Instant T = Instant.parse("2026-12-02T03:00:00Z");

    @TempDir
    Path tmp;

    private PqPublicKey first;
    /** Records handing generation 0 to 1, 1 to 2, 2 to 3. */
    private final List<byte[]> records = new ArrayList<>();

    private Path file;

    @BeforeEach
    void chain() throws Exception {
        List<TestKeys.OpenKey> keys = new ArrayList<>();
        try {
            for (int g = 0; g <= 3; g++) {
                keys.add(TestKeys.open(tmp.resolve("k" + g + ".state")));
            }
            first = keys.get(0).publicKey();
            byte[] chainId = PublicKeys.keyId(first);
            for (int g = 1; g <= 3; g++) {
                TestKeys.OpenKey old = keys.get(g - 1);
                records.add(SignedKeyHandover.sign(
                                old.signer(),
                                old.publicKey(),
                                chainId,
                                g,
                                keys.get(g).publicKey(),
                                T)
                        .encode());
            }
        } finally {
            keys.forEach(TestKeys.OpenKey::close);
        }
        file = tmp.resolve(SensorKeyDirectory.HANDOVER_LOG);
    }

    private static byte[] cert(int g) {
        return ("certificate of generation " + g).getBytes(StandardCharsets.US_ASCII);
    }

    /** A log with all three records, generation 2's with a certificate. */
    private HandoverLog full() throws IOException {
        HandoverLog log = HandoverLog.create(file, first);
        for (int g = 1; g <= 3; g++) {
            log.append(new HandoverLog.Entry(g, records.get(g - 1), g == 2 ? cert(g) : new byte[0]));
        }
        return log;
    }

    /** Where generation {@code g}'s entry starts in {@link #full()}'s file. */
    private long offsetOf(int g) throws IOException {
        byte[] b = Files.readAllBytes(file);
        long pos = HandoverLog.HEADER_BYTES;
        for (int i = 1; i < g; i++) {
            pos += HandoverLog.ENTRY_HEAD_BYTES
                    + ByteBuffer.wrap(b, (int) pos, 4).getInt();
        }
        return pos;
    }

    private void flip(long offset) throws IOException {
        byte[] b = Files.readAllBytes(file);
        b[(int) offset] ^= 0x01;
        Files.write(file, b);
    }

    @Test
    void append_thenRead_returnsEveryEntryAsWritten() throws Exception {
        full();
        HandoverLog read = HandoverLog.read(file, first);
        assertEquals(3, read.count());
        assertTrue(read.damagedTail().isEmpty());
        for (int g = 1; g <= 3; g++) {
            HandoverLog.Entry e = read.entry(g);
            assertEquals(g, e.generation());
            assertArrayEquals(records.get(g - 1), e.record());
            assertArrayEquals(g == 2 ? cert(g) : new byte[0], e.certificate());
        }
        byte[] head = Arrays.copyOf(Files.readAllBytes(file), 8);
        assertArrayEquals(new byte[] {'P', 'Q', 'H', 'C', 1, 0, 0, 0}, head);
    }

    @Test
    void read_lastEntryCutOff_reportsDamagedTailKeepsTheRestAndCutTailAllowsAppendingAgain() throws Exception {
        full();
        long third = offsetOf(3);
        long size = Files.size(file);
        try (var ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size - 100);
        }
        HandoverLog read = HandoverLog.read(file, first);
        assertEquals(2, read.count());
        HandoverLog.DamagedTail tail = read.damagedTail().orElseThrow();
        assertEquals(third, tail.offset());
        assertEquals(3, tail.generation());
        assertThrows(IllegalStateException.class, () -> read.append(new HandoverLog.Entry(3, records.get(2), cert(3))));
        read.cutTail();
        assertEquals(third, Files.size(file));
        read.append(new HandoverLog.Entry(3, records.get(2), new byte[0]));
        assertEquals(size, Files.size(file));
        assertEquals(3, HandoverLog.read(file, first).count());
    }

    @Test
    void read_onlyPartOfAnEntryHeader_isDamagedTail() throws Exception {
        HandoverLog.create(file, first).append(new HandoverLog.Entry(1, records.get(0), new byte[0]));
        Files.write(file, new byte[] {0, 0, 1}, StandardOpenOption.APPEND);
        HandoverLog read = HandoverLog.read(file, first);
        assertEquals(1, read.count());
        assertEquals(2, read.damagedTail().orElseThrow().generation());
    }

    @Test
    void read_flippedByteInLastEntry_isDamagedTailNotAnEntry() throws Exception {
        full();
        flip(Files.size(file) - 5);
        HandoverLog read = HandoverLog.read(file, first);
        assertEquals(2, read.count());
        assertTrue(read.damagedTail().orElseThrow().problem().contains("CRC-32C"));
    }

    @Test
    void read_flippedByteInMiddleEntry_fails() throws Exception {
        full();
        flip(offsetOf(2) + HandoverLog.ENTRY_HEAD_BYTES + 100);
        KeyFormatException e = assertThrows(KeyFormatException.class, () -> HandoverLog.read(file, first));
        assertTrue(e.getMessage().contains("generation 2") && e.getMessage().contains("not the last"), e.getMessage());
    }

    @Test
    void read_hugeEntryLength_isRefusedBeforeReadingTheEntry() throws Exception {
        full();
        byte[] b = Files.readAllBytes(file);
        int at = (int) offsetOf(2);
        b[at] = (byte) 0xff; // length 0xff......: far above the largest entry
        Files.write(file, b);
        HandoverLog read = HandoverLog.read(file, first);
        assertEquals(1, read.count());
        HandoverLog.DamagedTail tail = read.damagedTail().orElseThrow();
        assertEquals(2, tail.generation());
        assertTrue(tail.problem().contains("outside"), tail.problem());
    }

    @Test
    void read_entryWithGoodCrcButWrongGeneration_fails() throws Exception {
        HandoverLog.create(file, first);
        byte[] body = HandoverLog.encodeBody(new HandoverLog.Entry(2, records.get(1), new byte[0]));
        ByteBuffer e = ByteBuffer.allocate(8 + body.length);
        e.putInt(body.length).putInt(HandoverLog.crc32c(body)).put(body);
        Files.write(file, e.array(), StandardOpenOption.APPEND);
        assertThrows(KeyFormatException.class, () -> HandoverLog.read(file, first));
    }

    @Test
    void read_wrongMagicVersionChainOrShortHeader_fails() throws Exception {
        full();
        byte[] good = Files.readAllBytes(file);
        for (int at : new int[] {0, 4, 5, 8, HandoverLog.HEADER_BYTES - 1}) {
            byte[] b = good.clone();
            b[at] ^= 0x40;
            Files.write(file, b);
            assertThrows(KeyFormatException.class, () -> HandoverLog.read(file, first), "byte " + at);
        }
        Files.write(file, Arrays.copyOf(good, HandoverLog.HEADER_BYTES - 1));
        assertThrows(KeyFormatException.class, () -> HandoverLog.read(file, first));
    }

    @Test
    void bounds_areTheOnesTheFormatDocumentStates() throws Exception {
        // docs/formats/handover-log.md section 2 and the CRC-32C check value of its preamble.
        assertEquals(40, HandoverLog.HEADER_BYTES);
        assertEquals(69_882, HandoverLog.MAX_RECORD_BYTES);
        assertEquals(1_048_576, HandoverLog.MAX_CERTIFICATE_BYTES);
        assertEquals(17, HandoverLog.MIN_BODY_BYTES);
        assertEquals(1_118_474, HandoverLog.MAX_BODY_BYTES);
        assertEquals(0xE3069283, HandoverLog.crc32c("123456789".getBytes(StandardCharsets.US_ASCII)));
        String doc = Files.readString(Path.of("..", "docs", "formats", "handover-log.md"));
        assertTrue(doc.contains("17 … 1,118,474") && doc.contains("1 … 69,882"), "the document states the bounds");
    }

    @Test
    void append_outOfOrderOrNotChained_isRefusedAndNothingWritten() throws Exception {
        HandoverLog log = HandoverLog.create(file, first);
        long size = Files.size(file);
        assertThrows(KeyFormatException.class, () -> log.append(new HandoverLog.Entry(1, records.get(1), new byte[0])));
        assertThrows(KeyFormatException.class, () -> log.append(new HandoverLog.Entry(2, records.get(1), new byte[0])));
        assertEquals(size, Files.size(file));
        assertEquals(0, HandoverLog.read(file, first).count());
    }
}
