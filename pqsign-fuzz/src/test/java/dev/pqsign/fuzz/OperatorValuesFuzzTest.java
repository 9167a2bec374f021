package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.opcua.SensorNodes;
import dev.pqsign.telemetry.Verdict;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;

/**
 * The value an operator receives in a notification from a sensor's record node
 * ({@link SensorNodes#RECORD}): any OPC UA type, a null value, a bad status, a null byte string, or
 * a byte string holding a signed record ({@code PQSR}) or a key handover record ({@code PQHO}). The
 * target takes each value the way {@code Operator}'s subscription handler does (its dispatch is
 * private, so it is restated here): no value while the status is {@code Bad_WaitingForInitialData}
 * is skipped; anything but a non-null byte string is a {@code MALFORMED} verdict; a byte string
 * starting with {@code PQHO} goes to the operator's {@code KeyChainFollower}; any other byte string
 * is decoded with {@code SignedRecord.decode} and checked by the operator's verifier.
 *
 * <p>Input: a tag byte and the value's bytes, as {@link Values} lays them out.
 *
 * <p>Asserts: nothing throws but the documented {@code IllegalArgumentException} of the record
 * decoder; a value that is not a byte string is never accepted; records pass the oracle of
 * {@link SignedRecordFuzzTest} and handover records the oracle of {@link KeyHandoverFuzzTest}.
 */
class OperatorValuesFuzzTest {

    /** The byte layout of a fuzz input: how its tag becomes a DataValue. */
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
        static final int WAITING = 10;
        static final int TAGS = 12;

        private Values() {}

        /** The value in {@code b}: its tag, then its bytes (a byte string's are the rest). */
        static DataValue parse(ByteBuffer b) {
            int tag = b.hasRemaining() ? b.get() & 0xff : NULL;
            switch (tag % TAGS) {
                case NULL:
                    return null;
                case BAD_STATUS:
                    return new DataValue(Variant.ofByteString(ByteString.of(rest(b))), StatusCode.BAD);
                case INT64:
                    return new DataValue(Variant.ofInt64(b.remaining() >= 8 ? b.getLong() : 0L));
                case STRING:
                    return new DataValue(Variant.ofString(new String(rest(b), StandardCharsets.UTF_8)));
                case BYTE_STRING:
                    return new DataValue(Variant.ofByteString(ByteString.of(rest(b))));
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
                case WAITING:
                    return new DataValue(new StatusCode(StatusCodes.Bad_WaitingForInitialData));
                default:
                    return new DataValue(Variant.ofInt32(b.remaining() >= 4 ? b.getInt() : 0));
            }
        }

        /** A notification carrying {@code value} as a byte string. */
        static byte[] byteString(byte[] value) {
            return SeedCorpus.prefixed((byte) BYTE_STRING, value);
        }

        private static byte[] rest(ByteBuffer b) {
            byte[] out = new byte[b.remaining()];
            b.get(out);
            return out;
        }
    }

    @FuzzTest
    void fuzz(byte[] data) throws IOException {
        DataValue notified = Values.parse(ByteBuffer.wrap(data));
        Object value = notified == null || notified.value() == null
                ? null
                : notified.value().value();
        StatusCode status = notified == null ? null : notified.statusCode();
        if (value == null && status != null && status.value() == StatusCodes.Bad_WaitingForInitialData) {
            return;
        }
        if (!(value instanceof ByteString bytes) || bytes.bytes() == null) {
            Verdict v = PinnedSensors.rememberingRecords().verifier.malformed(-1, "record node holds no byte string");
            assertEquals(Verdict.Reason.MALFORMED, v.reason());
            assertFalse(v.accepted());
            return;
        }
        byte[] b = bytes.bytesOrEmpty();
        if (b.length >= 4 && b[0] == 'P' && b[1] == 'Q' && b[2] == 'H' && b[3] == 'O') {
            KeyHandoverFuzzTest.receive(b);
            return;
        }
        SignedRecordFuzzTest.check(b);
    }
}
