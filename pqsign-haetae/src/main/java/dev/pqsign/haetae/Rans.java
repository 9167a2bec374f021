package dev.pqsign.haetae;

/**
 * Byte-wise rANS with 10-bit probabilities, as used for HighBits(z1) and the hint h. Frequencies per
 * parameter set are specification data; starts and the slot-to-symbol table are derived from them.
 *
 * <p>Encoding runs over the symbols in reverse order and writes bytes backwards; decoding runs forward.
 * Decoding never reads outside {@code [off, off + len)} and reports any inconsistency (bad initial
 * state, wrong final state, unused or missing bytes) by returning {@code false}.
 */
final class Rans {
    static final int SCALE_BITS = 10;
    static final int SCALE = 1 << SCALE_BITS;
    /** Lower bound of the normalisation interval. */
    static final long L = 1L << 23;

    /** Frequency table of one alphabet, with derived cumulative starts and slot lookup. */
    static final class Table {
        final int[] freq;
        final int[] start;
        final byte[] slotToSymbol = new byte[SCALE];
        /** Per slot: freq << 16 | (slot - start) << 6 | symbol (symbol < 64), one lookup per decoded symbol. */
        final int[] slotInfo = new int[SCALE];

        Table(int... freq) {
            this.freq = freq.clone();
            this.start = new int[freq.length];
            int acc = 0;
            for (int s = 0; s < freq.length; s++) {
                start[s] = acc;
                for (int j = 0; j < freq[s]; j++) {
                    slotToSymbol[acc + j] = (byte) s;
                    slotInfo[acc + j] = freq[s] << 16 | j << 6 | s;
                }
                acc += freq[s];
            }
            if (freq.length > 64) {
                throw new IllegalStateException("rANS alphabet larger than 64 symbols");
            }
            if (acc != SCALE) {
                throw new IllegalStateException("rANS frequencies sum to " + acc + ", expected " + SCALE);
            }
        }

        int size() {
            return freq.length;
        }
    }

    static final Table H_2 = new Table(382, 246, 65, 7, 1, 1, 1, 1, 1, 1, 7, 65, 246);
    static final Table HB_Z1_2 = new Table(1, 1, 1, 5, 58, 246, 398, 247, 59, 5, 1, 1, 1);
    static final Table H_3 = new Table(266, 213, 113, 40, 9, 1, 1, 1, 1, 1, 1, 1, 1, 9, 40, 113, 213);
    static final Table HB_Z1_3 = new Table(1, 1, 1, 1, 8, 37, 112, 216, 269, 216, 112, 38, 8, 1, 1, 1, 1);
    static final Table H_5 = new Table(
            122, 117, 102, 81, 59, 39, 23, 13, 6, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 6, 13, 24, 39, 59, 81,
            102, 118);
    static final Table HB_Z1_5 = new Table(1, 1, 1, 1, 2, 13, 48, 118, 204, 245, 204, 118, 48, 14, 2, 1, 1, 1, 1);

    static Table hTable(HaetaeParameterSet p) {
        switch (p) {
            case HAETAE_2:
                return H_2;
            case HAETAE_3:
                return H_3;
            default:
                return H_5;
        }
    }

    static Table hbZ1Table(HaetaeParameterSet p) {
        switch (p) {
            case HAETAE_2:
                return HB_Z1_2;
            case HAETAE_3:
                return HB_Z1_3;
            default:
                return HB_Z1_5;
        }
    }

    /** Backward-writing encoder state over a caller buffer. */
    static final class Encoder {
        private long x;
        private byte[] buf;
        private int ptr;
        private int limit;

        /** Starts encoding into {@code buf[limit..end)}, writing backwards from {@code end}. */
        void init(byte[] buf, int limit, int end) {
            this.x = L;
            this.buf = buf;
            this.ptr = end;
            this.limit = limit;
        }

        /**
         * Encodes one symbol. Returns false when fewer than 4 bytes of room would remain (the
         * reference's bound; the signer then retries).
         */
        boolean put(Table t, int symbol) {
            long f = t.freq[symbol];
            long xMax = ((L >>> SCALE_BITS) << 8) * f;
            while (x >= xMax) {
                buf[--ptr] = (byte) x;
                x >>>= 8;
            }
            x = ((x / f) << SCALE_BITS) + (x % f) + t.start[symbol];
            return ptr >= limit + 4;
        }

        /** Drops the reference to the caller's buffer. */
        void release() {
            buf = null;
            x = 0;
        }

        /** Writes the final state (4 bytes, little-endian) and returns the start offset of the code. */
        int flush() {
            ptr -= 4;
            buf[ptr] = (byte) x;
            buf[ptr + 1] = (byte) (x >>> 8);
            buf[ptr + 2] = (byte) (x >>> 16);
            buf[ptr + 3] = (byte) (x >>> 24);
            return ptr;
        }
    }

    /** Forward decoder over {@code [off, off + len)}; a view, it never copies the input. */
    static final class Decoder {
        private long x;
        private byte[] buf;
        private int ptr;
        private int end;
        private boolean ok;

        /** Reads the initial state; returns false if it is out of range or the input is too short. */
        boolean init(byte[] buf, int off, int len) {
            this.buf = buf;
            this.end = off + len;
            this.ok = false;
            if (len < 4) {
                return false;
            }
            long v = (buf[off] & 0xffL)
                    | (buf[off + 1] & 0xffL) << 8
                    | (buf[off + 2] & 0xffL) << 16
                    | (buf[off + 3] & 0xffL) << 24;
            if (v < L || v >= (L << 8)) {
                return false;
            }
            this.x = v;
            this.ptr = off + 4;
            this.ok = true;
            return true;
        }

        /** Decodes the next symbol. */
        int next(Table t) {
            int info = t.slotInfo[(int) x & (SCALE - 1)];
            long v = (long) (info >>> 16) * (x >>> SCALE_BITS) + ((info >>> 6) & 0x3ff);
            while (v < L && ptr < end) {
                v = (v << 8) | (buf[ptr++] & 0xff);
            }
            x = v;
            return info & 0x3f;
        }

        /** Drops the reference to the caller's buffer. */
        void release() {
            buf = null;
            x = 0;
        }

        /** True if the final state equals the initial one and every byte was consumed. */
        boolean finish() {
            return ok && x == L && ptr == end;
        }
    }

    private Rans() {}
}
