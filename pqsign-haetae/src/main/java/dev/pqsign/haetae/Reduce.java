package dev.pqsign.haetae;

import static dev.pqsign.haetae.HaetaeParameterSet.DQ;
import static dev.pqsign.haetae.HaetaeParameterSet.Q;

/** Modular reductions for q = 64513 and 2q (Montgomery with R = 2^32, Barrett). */
final class Reduce {
    /** 2^32 mod q. */
    static final int MONT = 14321;
    /** 2^64 mod q. */
    static final int MONTSQ = 4214;
    /** q^-1 mod 2^32. */
    static final int QINV = 940508161;
    /** floor(2^32 / q). */
    private static final long QREC = 66575;
    /** floor(2^32 / 2q). */
    private static final long DQREC = 33287;

    private Reduce() {}

    /** For |a| &lt;= q * 2^31 returns r = a * 2^-32 mod q with -q &lt; r &lt; q. */
    static int montgomery(long a) {
        int t = (int) a * QINV;
        return (int) ((a - (long) t * Q) >> 32);
    }

    /** Adds q if a is negative. */
    static int caddq(int a) {
        return a + ((a >> 31) & Q);
    }

    /** Standard representative in [0, q). */
    static int freeze(int a) {
        long t = ((long) a * QREC) >> 32;
        t = a - t * Q;
        t += (t >> 31) & DQ;
        t -= ~((t - Q) >> 31) & Q;
        return (int) t;
    }

    /** Centered representative modulo 2q, in [-q, q). */
    static int reduce2q(int a) {
        long t = ((long) a * DQREC) >> 32;
        t = a - t * DQ;
        t += (t >> 31) & (2L * DQ);
        t -= ~((t - DQ) >> 31) & DQ;
        t -= ~((t - Q) >> 31) & DQ;
        return (int) t;
    }

    /** Standard representative modulo 2q, in [0, 2q). */
    static int freeze2q(int a) {
        long t = ((long) a * DQREC) >> 32;
        t = a - t * DQ;
        t += (t >> 31) & (2L * DQ);
        t -= ~((t - DQ) >> 31) & DQ;
        return (int) t;
    }
}
