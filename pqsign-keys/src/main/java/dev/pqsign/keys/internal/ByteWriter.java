package dev.pqsign.keys.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Big-endian writer for pqsign's self-defined formats; the counterpart of {@link StrictReader}. */
public final class ByteWriter {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public ByteWriter raw(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    public ByteWriter u8(int v) {
        out.write(v);
        return this;
    }

    public ByteWriter u16(int v) {
        out.write(v >>> 8);
        out.write(v);
        return this;
    }

    public ByteWriter u32(long v) {
        for (int s = 24; s >= 0; s -= 8) {
            out.write((int) (v >>> s));
        }
        return this;
    }

    public ByteWriter u64(long v) {
        for (int s = 56; s >= 0; s -= 8) {
            out.write((int) (v >>> s));
        }
        return this;
    }

    /** A one-byte length followed by the ASCII name. */
    public ByteWriter name(String name) {
        byte[] b = name.getBytes(StandardCharsets.US_ASCII);
        out.write(b.length);
        out.writeBytes(b);
        return this;
    }

    public byte[] toByteArray() {
        return out.toByteArray();
    }
}
