package dev.pqsign.telemetry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.Hex;
import dev.pqsign.testing.MemoryStateStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class ReadingMessageTest {

    static final String EXAMPLE_SET = "XMSSMT-SHA2_10/2_256";
    static final long EXAMPLE_INDEX = 5;
    static final String EXAMPLE_READING = "1503.27,2026-11-30T01:26:16.123456789Z";

    /** The worked example of docs/formats/signed-reading.md must be exactly what the code produces. */
    @Test
    void encode_workedExample_matchesDocument() throws IOException {
        byte[] m = ReadingMessage.encode(EXAMPLE_SET, EXAMPLE_INDEX, EXAMPLE_READING.getBytes(StandardCharsets.UTF_8));
        String hex = Hex.encode(m);
        System.out.println("worked example (" + m.length + " bytes): " + hex);
        Path doc = Path.of("..", "docs", "formats", "signed-reading.md");
        String text = Files.readString(doc);
        int start = text.indexOf("<!-- example-hex -->");
        int end = text.indexOf("<!-- /example-hex -->");
        assertTrue(start >= 0 && end > start, "document lacks the example-hex markers");
        String documented =
                text.substring(start + "<!-- example-hex -->".length(), end).replaceAll("[^0-9a-f]", "");
        assertEquals(hex, documented);
        assertEquals(16 + 1 + 1 + 20 + 8 + 4 + 38, m.length);
    }

    /**
     * An independent verifier written from the document's offset table alone (no ReadingMessage)
     * accepts what ReadingSigner signs.
     */
    @Test
    void independentVerifier_fromDocumentTable_acceptsSignedReading() throws Exception {
        Ed25519TestDouble key = Ed25519TestDouble.generate();
        ReadingSigner signer = new ReadingSigner(SequencedSigner.open(key.signer(), MemoryStateStore.empty("c"), 1));
        signer.sign("warm-up");
        SignedReading r = signer.sign(EXAMPLE_READING);
        String set = Ed25519TestDouble.PARAMS.setName();
        byte[] text = r.reading().getBytes(StandardCharsets.UTF_8);
        java.io.ByteArrayOutputStream m = new java.io.ByteArrayOutputStream();
        m.write("PQSIGN-READING".getBytes(StandardCharsets.US_ASCII));
        m.write(new byte[] {0, 0, 0x01, (byte) set.length()});
        m.write(set.getBytes(StandardCharsets.US_ASCII));
        for (int shift = 56; shift >= 0; shift -= 8) {
            m.write((int) (r.index() >>> shift));
        }
        for (int shift = 24; shift >= 0; shift -= 8) {
            m.write(text.length >>> shift);
        }
        m.write(text);
        assertEquals(1, r.index());
        assertTrue(key.verifier().verify(m.toByteArray(), r.signature()));
    }

    @Test
    void encode_layout_fieldsAtDocumentedOffsets() {
        byte[] m = ReadingMessage.encode("AB", 0x0102030405060708L, new byte[] {9});
        assertArrayEquals("PQSIGN-READING\0\0".getBytes(StandardCharsets.US_ASCII), Arrays.copyOf(m, 16));
        assertEquals(1, m[16]);
        assertEquals(2, m[17]);
        assertEquals('A', m[18]);
        assertEquals('B', m[19]);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, Arrays.copyOfRange(m, 20, 28));
        assertArrayEquals(new byte[] {0, 0, 0, 1, 9}, Arrays.copyOfRange(m, 28, 33));
        assertEquals(33, m.length);
    }

    @Property
    void decode_ofEncode_returnsFields(
            @ForAll("names") String name,
            @ForAll @LongRange(min = 0) long index,
            @ForAll @Size(max = 200) byte[] reading) {
        ReadingMessage.Decoded d = ReadingMessage.decode(ReadingMessage.encode(name, index, reading));
        assertEquals(name, d.parameterSetName());
        assertEquals(index, d.index());
        assertArrayEquals(reading, d.reading());
    }

    @Property
    void encode_differentIndex_differentMessage(
            @ForAll @LongRange(min = 0) long a,
            @ForAll @LongRange(min = 0) long b,
            @ForAll @Size(max = 50) byte[] reading) {
        byte[] ma = ReadingMessage.encode("S", a, reading);
        byte[] mb = ReadingMessage.encode("S", b, reading);
        assertEquals(a == b, Arrays.equals(ma, mb));
    }

    @Property
    void encode_nameReadingBoundaryShift_differentMessage(
            @ForAll("names") String name, @ForAll @Size(max = 20) byte[] reading) {
        // moving a byte from the name into the reading must change the message (length prefixes)
        if (name.length() < 2) {
            return;
        }
        byte[] moved = new byte[reading.length + 1];
        moved[0] = (byte) name.charAt(name.length() - 1);
        System.arraycopy(reading, 0, moved, 1, reading.length);
        assertFalse(Arrays.equals(
                ReadingMessage.encode(name, 1, reading),
                ReadingMessage.encode(name.substring(0, name.length() - 1), 1, moved)));
    }

    @Property
    void decode_randomBytes_throwsOnlyIllegalArgument(@ForAll @Size(max = 120) byte[] garbage) {
        try {
            ReadingMessage.decode(garbage);
        } catch (IllegalArgumentException expected) {
            // fine: garbage is rejected with a clear message
        }
    }

    @Test
    void decode_sameMessageTwice_equalDecodedValues() {
        byte[] m = ReadingMessage.encode("S", 1, new byte[] {1, 2});
        ReadingMessage.Decoded a = ReadingMessage.decode(m);
        ReadingMessage.Decoded b = ReadingMessage.decode(m.clone());
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertFalse(a.equals(ReadingMessage.decode(ReadingMessage.encode("S", 1, new byte[] {1, 3}))));
    }

    @Test
    void decode_trailingByte_throws() {
        byte[] m = ReadingMessage.encode("S", 1, new byte[] {1});
        byte[] longer = Arrays.copyOf(m, m.length + 1);
        assertThrows(IllegalArgumentException.class, () -> ReadingMessage.decode(longer));
        assertThrows(IllegalArgumentException.class, () -> ReadingMessage.decode(Arrays.copyOf(m, m.length - 1)));
    }

    @Test
    void decode_wrongVersion_throws() {
        byte[] m = ReadingMessage.encode("S", 1, new byte[] {1});
        m[16] = 2;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReadingMessage.decode(m));
        assertTrue(e.getMessage().contains("version 2"));
    }

    /** Found by the fuzzing campaign (SignedReadingFuzzTest): decode took names encode refuses. */
    @Test
    void decode_nameWithSpaceOrControlOrNonAscii_throws() {
        for (byte bad : new byte[] {' ', 0x00, 0x0a, 0x7f, (byte) 0xc3}) {
            byte[] m = ReadingMessage.encode("ABC", 1, new byte[] {1});
            m[18 + 1] = bad; // second character of the name
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> ReadingMessage.decode(m), "name byte " + (bad & 0xff));
            assertTrue(e.getMessage().contains("printable ASCII"), e.getMessage());
        }
    }

    @Test
    void decode_hugeDeclaredLength_throwsWithoutAllocating() {
        byte[] m = ReadingMessage.encode("S", 1, new byte[0]);
        m[m.length - 4] = (byte) 0x7f; // declares ~2 GB of reading
        assertThrows(IllegalArgumentException.class, () -> ReadingMessage.decode(m));
    }

    @Test
    void encode_badFields_throw() {
        assertThrows(IllegalArgumentException.class, () -> ReadingMessage.encode("", 1, new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> ReadingMessage.encode("a b", 1, new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> ReadingMessage.encode("S", -1, new byte[0]));
        assertThrows(
                IllegalArgumentException.class,
                () -> ReadingMessage.encode("S", 1, new byte[ReadingMessage.MAX_READING_BYTES + 1]));
        assertThrows(IllegalArgumentException.class, () -> ReadingMessage.encode("x".repeat(65), 1, new byte[0]));
    }

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.strings().withCharRange('!', '~').ofMinLength(1).ofMaxLength(ReadingMessage.MAX_NAME_BYTES);
    }
}
