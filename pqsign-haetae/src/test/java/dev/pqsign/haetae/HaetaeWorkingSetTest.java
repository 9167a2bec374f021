package dev.pqsign.haetae;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pqsign.haetae.internal.HaetaeWorkingSet;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** {@link HaetaeWorkingSet} hands out the very objects the engines work in, per thread. */
class HaetaeWorkingSetTest {

    @Test
    void forThread_isTheEnginesOwnContext() {
        HaetaeParameterSet p = HaetaeParameterSet.HAETAE_3;
        assertSame(
                HaetaeContext.forThread(p),
                HaetaeWorkingSet.forThread(HaetaeEngine.FAST, p, HaetaeWorkingSet.Operation.SIGN));
        for (HaetaeWorkingSet.Operation op : HaetaeWorkingSet.Operation.values()) {
            assertSame(
                    CompactEngine.forThread(CompactEngine.Op.valueOf(op.name())),
                    HaetaeWorkingSet.forThread(HaetaeEngine.COMPACT, p, op));
        }
    }

    @Test
    void forThread_fastPerSet_compactPerOperation() {
        assertNotSame(
                HaetaeWorkingSet.forThread(
                        HaetaeEngine.FAST, HaetaeParameterSet.HAETAE_2, HaetaeWorkingSet.Operation.SIGN),
                HaetaeWorkingSet.forThread(
                        HaetaeEngine.FAST, HaetaeParameterSet.HAETAE_5, HaetaeWorkingSet.Operation.SIGN));
        assertSame(
                HaetaeWorkingSet.forThread(
                        HaetaeEngine.COMPACT, HaetaeParameterSet.HAETAE_2, HaetaeWorkingSet.Operation.SIGN),
                HaetaeWorkingSet.forThread(
                        HaetaeEngine.COMPACT, HaetaeParameterSet.HAETAE_5, HaetaeWorkingSet.Operation.SIGN));
        assertNotSame(
                HaetaeWorkingSet.forThread(
                        HaetaeEngine.COMPACT, HaetaeParameterSet.HAETAE_2, HaetaeWorkingSet.Operation.SIGN),
                HaetaeWorkingSet.forThread(
                        HaetaeEngine.COMPACT, HaetaeParameterSet.HAETAE_2, HaetaeWorkingSet.Operation.VERIFY));
    }

    @Test
    void forThread_otherThreadGetsItsOwn() throws Exception {
        Object mine = HaetaeWorkingSet.forThread(
                HaetaeEngine.COMPACT, HaetaeParameterSet.HAETAE_2, HaetaeWorkingSet.Operation.KEYGEN);
        Object theirs = CompletableFuture.supplyAsync(() -> HaetaeWorkingSet.forThread(
                        HaetaeEngine.COMPACT, HaetaeParameterSet.HAETAE_2, HaetaeWorkingSet.Operation.KEYGEN))
                .get();
        assertNotSame(mine, theirs);
    }

    @Test
    void forThread_null_rejected() {
        assertThrows(
                NullPointerException.class,
                () -> HaetaeWorkingSet.forThread(null, HaetaeParameterSet.HAETAE_2, HaetaeWorkingSet.Operation.SIGN));
        assertThrows(
                NullPointerException.class,
                () -> HaetaeWorkingSet.forThread(HaetaeEngine.FAST, null, HaetaeWorkingSet.Operation.SIGN));
        assertThrows(
                NullPointerException.class,
                () -> HaetaeWorkingSet.forThread(HaetaeEngine.FAST, HaetaeParameterSet.HAETAE_2, null));
    }

    @Test
    void install_secondLookup_isRefused() {
        HaetaeWorkingSet.forThread(HaetaeEngine.FAST, HaetaeParameterSet.HAETAE_2, HaetaeWorkingSet.Operation.SIGN);
        assertThrows(IllegalStateException.class, () -> HaetaeWorkingSet.install((e, s, o) -> new Object()));
    }
}
