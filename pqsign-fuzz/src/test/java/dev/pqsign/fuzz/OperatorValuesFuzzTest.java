package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.opcua.SensorNodes;
import dev.pqsign.opcua.internal.Publication;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;

/**
 * The values an operator receives from a sensor's OPC UA nodes: the nine {@link SensorNodes#SNAPSHOT}
 * values of one Read, decoded by {@link Publication} (what the Operator's connection does with a Read
 * result) and then checked by the operator's {@code ReadingVerifier} with two pinned keys.
 *
 * <p>Input: a count byte (values = count mod 12), then per value a tag byte and its bytes, as
 * {@link Values} lays them out: any OPC UA type at any position, null values, bad status codes,
 * null byte strings. Asserts: decoding never throws; a publication without a problem carries a
 * reading, key id and set name; the verifier never throws and its verdict passes
 * {@link PinnedSensors#assertConsistent} (no accept BouncyCastle 1.87 would not accept).
 */
class OperatorValuesFuzzTest {

    /** The byte layout of a fuzz input: how each tag becomes a DataValue. */
    static final class Values {
        static final int NULL = 0;
        static final int BAD_STATUS = 1;
        static final int INT64 = 2;
        static final int STRING = 3;
        static final int BYTE_STRING = 4;
        static final int UINT32 = 5;
        static final int DOUBLE = 6;
        static final int NULL_VARIANT = 7;
        static final int NULL_BYTE_STRING = 8;
        static final int BOOLEAN = 9;
        static final int TAGS = 11;

        private Values() {}

        /** The values in {@code b}, stopping at the first one that is cut off. */
        static List<DataValue> parse(ByteBuffer b) {
            List<DataValue> out = new ArrayList<>();
            if (!b.hasRemaining()) {
                return out;
            }
            int count = (b.get() & 0xff) % 12;
            for (int i = 0; i < count && b.hasRemaining(); i++) {
                out.add(value(b.get() & 0xff, b));
            }
            return out;
        }

        private static DataValue value(int tag, ByteBuffer b) {
            switch (tag % TAGS) {
                case NULL:
                    return null;
                case BAD_STATUS:
                    return new DataValue(Variant.ofInt64(b.remaining() >= 8 ? b.getLong() : 0L), StatusCode.BAD);
                case INT64:
                    return new DataValue(Variant.ofInt64(b.remaining() >= 8 ? b.getLong() : 0L));
                case STRING:
                    return new DataValue(Variant.ofString(new String(bytes(b), StandardCharsets.UTF_8)));
                case BYTE_STRING:
                    return new DataValue(Variant.ofByteString(ByteString.of(bytes(b))));
                case UINT32:
                    return new DataValue(
                            Variant.ofUInt32(UInteger.valueOf(b.remaining() >= 4 ? b.getInt() & 0xffffffffL : 0)));
                case DOUBLE:
                    return new DataValue(Variant.ofDouble(b.remaining() >= 8 ? b.getDouble() : 0.0));
                case NULL_VARIANT:
                    return new DataValue(Variant.NULL_VALUE);
                case NULL_BYTE_STRING:
                    return new DataValue(Variant.ofByteString(ByteString.NULL_VALUE));
                case BOOLEAN:
                    return new DataValue(Variant.ofBoolean(b.hasRemaining() && b.get() != 0));
                default:
                    return new DataValue(Variant.ofInt32(b.remaining() >= 4 ? b.getInt() : 0));
            }
        }

        /** The nine values a sensor publishes for one reading, in {@link SensorNodes#SNAPSHOT} order. */
        static byte[] encode(
                String raw,
                byte[] sig,
                long index,
                String setName,
                byte[] keyId,
                double signMs,
                long signStart,
                long published,
                long sequence) {
            byte[] r = raw.getBytes(StandardCharsets.UTF_8);
            byte[] n = setName.getBytes(StandardCharsets.UTF_8);
            ByteBuffer b = ByteBuffer.allocate(
                    1 + 9 + 2 + r.length + 2 + sig.length + 4 + 2 + n.length + 2 + keyId.length + 4 * 8);
            b.put((byte) SensorNodes.SNAPSHOT.size());
            b.put((byte) STRING).putShort((short) r.length).put(r);
            b.put((byte) BYTE_STRING).putShort((short) sig.length).put(sig);
            b.put((byte) UINT32).putInt((int) index);
            b.put((byte) STRING).putShort((short) n.length).put(n);
            b.put((byte) BYTE_STRING).putShort((short) keyId.length).put(keyId);
            b.put((byte) DOUBLE).putDouble(signMs);
            b.put((byte) INT64).putLong(signStart);
            b.put((byte) INT64).putLong(published);
            b.put((byte) INT64).putLong(sequence);
            return b.array();
        }

        private static byte[] bytes(ByteBuffer b) {
            int len = b.remaining() >= 2 ? b.getShort() & 0xffff : 0;
            byte[] out = new byte[Math.min(len, b.remaining())];
            b.get(out);
            return out;
        }
    }

    @FuzzTest
    void fuzz(byte[] data) {
        Publication p = Publication.decode(Values.parse(ByteBuffer.wrap(data)));
        assertNotNull(p);
        if (p.problem() != null) {
            assertNull(p.reading());
            return;
        }
        assertNotNull(p.sequence());
        assertNotNull(p.reading());
        assertNotNull(p.keyId());
        assertNotNull(p.setName());
        PinnedSensors k = PinnedSensors.get();
        k.assertConsistent(p.keyId(), p.reading(), k.verifier.check(p.keyId(), p.setName(), p.reading()));
    }
}
