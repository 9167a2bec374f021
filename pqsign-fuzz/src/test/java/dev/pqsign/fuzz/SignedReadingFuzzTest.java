package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.ReadingMessage;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.xmss.XmssParameterSet;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The signed-reading message (docs/formats/signed-reading.md) and the operator's verification
 * policy ({@link ReadingVerifier}) over the values a sensor publishes.
 *
 * <p>Input: a mode byte, then the bytes. Even mode: a signed-reading message for
 * {@link ReadingMessage#decode}; it decodes or throws {@link IllegalArgumentException} (documented),
 * and a decoded message re-encodes to its input. Odd mode: published values for key (mode / 2) mod 3
 * (0 the pinned XMSS^MT key, 1 the pinned HAETAE-2 key, 2 a key id nobody pinned), laid out as
 * {@link Published}. The verifier keeps one replay guard for the whole run.
 *
 * <p>Asserts: {@link ReadingVerifier#check} never throws; a reading it accepts (or refuses only as a
 * replay) verifies under BouncyCastle 1.87 over the canonical message, with the index inside an
 * XMSS^MT signature equal to the published one; a reading it calls {@code BAD_SIGNATURE} does not
 * verify under BouncyCastle; an accepted index is above every index accepted before for that key.
 */
class SignedReadingFuzzTest {
    static final XmssParameterSet XMSS_SET = PinnedSensors.XMSS_SET;
    static final HaetaeParameterSet HAETAE_SET = PinnedSensors.HAETAE_SET;

    /**
     * The published values of one reading in a fuzz input: u64 index, u16 reading length, the
     * reading's UTF-8 bytes, u8 set-name length, the set name, then the signature (the rest).
     */
    record Published(long index, String reading, String setName, byte[] signature) {
        static Published parse(ByteBuffer b) {
            if (b.remaining() < 10) {
                return null;
            }
            long index = b.getLong();
            int len = b.getShort() & 0xffff;
            if (b.remaining() < len + 1) {
                return null;
            }
            byte[] reading = new byte[len];
            b.get(reading);
            int nameLen = b.get() & 0xff;
            if (b.remaining() < nameLen) {
                return null;
            }
            byte[] name = new byte[nameLen];
            b.get(name);
            byte[] sig = new byte[b.remaining()];
            b.get(sig);
            return new Published(
                    index, new String(reading, StandardCharsets.UTF_8), new String(name, StandardCharsets.UTF_8), sig);
        }

        byte[] encode() {
            byte[] r = reading.getBytes(StandardCharsets.UTF_8);
            byte[] n = setName.getBytes(StandardCharsets.UTF_8);
            return ByteBuffer.allocate(8 + 2 + r.length + 1 + n.length + signature.length)
                    .putLong(index)
                    .putShort((short) r.length)
                    .put(r)
                    .put((byte) n.length)
                    .put(n)
                    .put(signature)
                    .array();
        }
    }

    @FuzzTest
    void fuzz(byte[] data) {
        if (data.length < 1) {
            return;
        }
        int mode = data[0] & 0xff;
        ByteBuffer rest = ByteBuffer.wrap(data, 1, data.length - 1).slice();
        if (mode % 2 == 0) {
            message(data);
        } else {
            Published p = Published.parse(rest);
            if (p != null) {
                published((mode / 2) % 3, p);
            }
        }
    }

    private static void message(byte[] data) {
        byte[] m = new byte[data.length - 1];
        System.arraycopy(data, 1, m, 0, m.length);
        ReadingMessage.Decoded d;
        try {
            d = ReadingMessage.decode(m);
        } catch (IllegalArgumentException documented) {
            return;
        }
        assertNotNull(d.parameterSetName());
        assertArrayEquals(
                m,
                ReadingMessage.encode(d.parameterSetName(), d.index(), d.reading()),
                "a decoded signed-reading message re-encodes to its input");
    }

    private static void published(int keyChoice, Published p) {
        PinnedSensors k = PinnedSensors.get();
        SignedReading reading;
        try {
            reading = new SignedReading(p.reading(), p.index(), p.signature());
        } catch (IllegalArgumentException documented) {
            return;
        }
        KeyId claimed = keyChoice == 0 ? k.xmssId : keyChoice == 1 ? k.haetaeId : k.unknownId;
        k.assertConsistent(claimed, reading, k.verifier.check(claimed, p.setName(), reading));
    }
}
