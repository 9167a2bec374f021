package dev.pqsign.telemetry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.Hex;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

public class SignedRecordTest {

    /** The record of the worked example in docs/formats/signed-record.md. */
    public static SignedRecord example() {
        byte[] id = new byte[KeyId.BYTES];
        for (int i = 0; i < id.length; i++) {
            id[i] = (byte) (0xa0 + i);
        }
        byte[] sig = {1, 2, 3, 4, 5, 6, 7, 8};
        return SignedRecord.of(
                KeyId.of(id),
                "HAETAE-2",
                new SignedReading("1503.27,x", 5, sig),
                Instant.parse("2026-11-30T01:26:16.123456789Z"),
                1_764_465_976_000_001L,
                2_500_000,
                1000,
                3_600_000);
    }

    @Test
    void encode_workedExample_matchesDocument() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "formats", "signed-record.md"));
        Matcher m = Pattern.compile("<!-- example-hex -->\\s*([0-9a-f]+)\\s*<!-- /example-hex -->")
                .matcher(doc);
        assertTrue(m.find(), "worked example missing from the document");
        assertEquals(m.group(1), Hex.encode(example().encode()));
    }

    @Test
    void decode_encoded_roundTrips() {
        SignedRecord r = example();
        SignedRecord d = SignedRecord.decode(r.encode());
        assertEquals(r.keyId(), d.keyId());
        assertEquals(r.parameterSetName(), d.parameterSetName());
        assertEquals(r.reading(), d.reading());
        assertEquals(r.sourceTime(), d.sourceTime());
        assertEquals(r.sequence(), d.sequence());
        assertEquals(r.signNanos(), d.signNanos());
        assertEquals(r.signStartNanoTime(), d.signStartNanoTime());
        assertEquals(r.publishNanoTime(), d.publishNanoTime());
        assertArrayEquals(r.encode(), d.encode());
        assertTrue(r.sameContent(d));
    }

    @Test
    void decode_sourceTimeAtEitherEndOfI64_reencodesToTheSameBytes() {
        // Fuzz finding: a source time just above -2^63 ns decoded, then failed to encode.
        long[] times = {
            Long.MIN_VALUE, Long.MIN_VALUE + 55_224_192L, -1_000_000_001L, -1_000_000_000L, -1L, 0L, Long.MAX_VALUE
        };
        for (long nanos : times) {
            byte[] bytes = example().encode();
            ByteBuffer.wrap(bytes).putLong(46, nanos); // the source time field (docs/formats/signed-record.md)
            SignedRecord d = SignedRecord.decode(bytes);
            assertArrayEquals(bytes, d.encode(), "source time " + nanos + " ns");
            assertTrue(d.sameContent(SignedRecord.decode(bytes)));
        }
    }

    @Test
    void decode_everyTruncation_rejected() {
        byte[] b = example().encode();
        for (int n = 0; n < b.length; n++) {
            byte[] cut = Arrays.copyOf(b, n);
            assertThrows(IllegalArgumentException.class, () -> SignedRecord.decode(cut), "length " + n);
        }
        byte[] longer = Arrays.copyOf(b, b.length + 1);
        assertThrows(IllegalArgumentException.class, () -> SignedRecord.decode(longer));
    }

    @Test
    void decode_wrongMagicVersionFlagsOrLengths_rejected() {
        byte[] b = example().encode();
        for (int at : new int[] {0, 4, 5}) {
            byte[] bad = b.clone();
            bad[at] ^= 1;
            assertThrows(IllegalArgumentException.class, () -> SignedRecord.decode(bad), "byte " + at);
        }
        byte[] hugeReading = b.clone();
        int readingLengthAt = SignedRecord.FIXED_BYTES - 8 + "HAETAE-2".length();
        ByteBuffer.wrap(hugeReading, readingLengthAt, 4).putInt(Integer.MAX_VALUE);
        assertThrows(IllegalArgumentException.class, () -> SignedRecord.decode(hugeReading));
        byte[] badUtf8 = b.clone();
        badUtf8[readingLengthAt + 4] = (byte) 0xff;
        assertThrows(IllegalArgumentException.class, () -> SignedRecord.decode(badUtf8));
    }

    @Test
    void sameContent_differentSignatureOrReading_false_differentTimes_true() {
        SignedRecord r = example();
        SignedRecord otherTime =
                SignedRecord.of(r.keyId(), r.parameterSetName(), r.reading(), Instant.EPOCH, 7, 0, 0, 0);
        assertTrue(r.sameContent(otherTime));
        byte[] sig = r.reading().signature().clone();
        sig[0] ^= 1;
        SignedRecord otherSig = SignedRecord.of(
                r.keyId(),
                r.parameterSetName(),
                new SignedReading(r.reading().reading(), r.index(), sig),
                r.sourceTime(),
                1,
                0,
                0,
                0);
        assertFalse(r.sameContent(otherSig));
        assertFalse(r.sameContent(SignedRecord.of(
                r.keyId(),
                r.parameterSetName(),
                FaultInjector.withTamperedReading(r.reading()),
                r.sourceTime(),
                1,
                0,
                0,
                0)));
    }

    @Property(tries = 300)
    void decode_arbitraryBytes_neverThrowsAnythingElse(@ForAll @Size(max = 300) byte[] junk) {
        byte[] b = junk.clone();
        if (b.length >= 4) {
            System.arraycopy(SignedRecord.MAGIC, 0, b, 0, 4);
        }
        try {
            SignedRecord.decode(b);
        } catch (IllegalArgumentException expected) {
            // rejected with a reason
        }
    }
}
