package dev.pqsign.xmss;

import dev.pqsign.xmss.internal.XmssHashCounter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Main class run in a child JVM by {@link WotsChainsTest}: counts the hash calls of single bottom-tree
 * signatures, which needs {@link XmssHashCounter} switched on before the JVM hashes anything (the
 * flag is read once). For each opening in {@link #OPENINGS} ({@code <start>/<threads>}) it prints
 * {@code opened-<opening> CALLS} for the first signature after opening a key there with kept chain
 * values, {@code leafByLeaf-<opening> CALLS} for a signature one bottom tree later (from a tree whose
 * chain values were kept as its leaves were computed, one per signature), and
 * {@code hashing-<opening> CALLS} for the first signature of a signer that keeps no chain values;
 * {@code openKeeping-<opening> CALLS} and {@code openHashing-<opening> CALLS} for opening each.
 * Exits 2 if a signature differs from the hashing signer's.
 */
public final class HashCountChild {
    static final List<String> OPENINGS = List.of("0/1", "5/1", "0/2", "5/2");

    private HashCountChild() {}

    public static void main(String[] args) {
        System.setProperty("pqsign.xmss.countHashes", "true");
        if (!XmssHashCounter.enabled()) {
            System.err.println("hash counting was read before it was switched on");
            System.exit(3);
        }
        XmssParameterSet p = XmssParameterSet.XMSSMT_SHA2_10_2_256;
        XmssPrivateKey key = XmssStatefulSignerTest.key(p, 84);
        int leaves = 1 << p.treeHeight();
        for (String opening : OPENINGS) {
            String[] f = opening.split("/");
            long start = Long.parseLong(f[0]);
            int threads = Integer.parseInt(f[1]);
            XmssHashCounter.reset();
            WotsChainsTest.Signer kept = WotsChainsTest.Signer.of(key, false, threads, true, start);
            long openKept = XmssHashCounter.calls();
            XmssHashCounter.reset();
            WotsChainsTest.Signer hashing = WotsChainsTest.Signer.of(key, false, threads, false, start);
            long openHashing = XmssHashCounter.calls();
            // One bottom tree later, but not a tree's first index: there the layer above signs the
            // new tree's root, hashing that has nothing to do with kept values.
            long later = start + leaves + 1;
            long first = 0;
            long plain = 0;
            long fromTable = 0;
            for (long i = start; i <= later; i++) {
                XmssHashCounter.reset();
                byte[] a = kept.signing().sign(i, message(i), kept.cache());
                long keptCalls = XmssHashCounter.calls();
                XmssHashCounter.reset();
                byte[] b = hashing.signing().sign(i, message(i), hashing.cache());
                long hashingCalls = XmssHashCounter.calls();
                if (!Arrays.equals(a, b)) {
                    System.err.println(opening + ": signature " + i + " differs from the hashing signer's");
                    System.exit(2);
                }
                kept.cache().afterSign(i, kept.end());
                hashing.cache().afterSign(i, hashing.end());
                if (i == start) {
                    first = keptCalls;
                    plain = hashingCalls;
                } else if (i == later) {
                    fromTable = keptCalls;
                }
            }
            System.out.println("opened-" + opening + " " + first);
            System.out.println("leafByLeaf-" + opening + " " + fromTable);
            System.out.println("hashing-" + opening + " " + plain);
            System.out.println("openKeeping-" + opening + " " + openKept);
            System.out.println("openHashing-" + opening + " " + openHashing);
        }
    }

    /** Messages of one length, so that hashing them always takes the same calls. */
    private static byte[] message(long idx) {
        return String.format("reading %08d", idx).getBytes(StandardCharsets.UTF_8);
    }
}
