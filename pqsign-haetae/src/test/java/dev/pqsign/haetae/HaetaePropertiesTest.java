package dev.pqsign.haetae;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.bouncycastle.crypto.digests.SHAKEDigest;

/** Property tests: tamper detection, garbage rejection, and encode/decode round trips. */
class HaetaePropertiesTest {
    private static final byte[] MSG = "flow=12.5;valve=open".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    private static final byte[] CTX = {7, 7, 7};
    private static final Map<HaetaeParameterSet, HaetaeKeyPair> KEYS = new EnumMap<>(HaetaeParameterSet.class);
    private static final Map<HaetaeParameterSet, byte[]> SIGS = new EnumMap<>(HaetaeParameterSet.class);

    static {
        for (HaetaeParameterSet p : HaetaeParameterSet.values()) {
            byte[] seed = new byte[32];
            seed[0] = (byte) p.ordinal();
            HaetaeKeyPair kp = HaetaeKeyPairGenerator.fromSeed(p, seed);
            KEYS.put(p, kp);
            SIGS.put(p, new HaetaeSigner(kp.privateKey()).sign(MSG, CTX));
        }
    }

    @Property(tries = 300)
    void verify_anyFlippedSignatureBit_returnsFalse(
            @ForAll HaetaeParameterSet p, @ForAll @IntRange(min = 0, max = 2948 * 8 - 1) int bit) {
        byte[] sig = SIGS.get(p).clone();
        int b = bit % (sig.length * 8);
        sig[b >>> 3] ^= (byte) (1 << (b & 7));
        assertFalse(new HaetaeVerifier(KEYS.get(p).publicKey()).verify(MSG, CTX, sig));
        assertFalse(new HaetaeVerifier(KEYS.get(p).publicKey(), CTX, HaetaeEngine.COMPACT).verify(MSG, sig));
    }

    @Property(tries = 100)
    void verify_anyFlippedMessageOrContextBit_returnsFalse(
            @ForAll HaetaeParameterSet p, @ForAll @IntRange(min = 0, max = 1000) int bit) {
        HaetaeVerifier v = new HaetaeVerifier(KEYS.get(p).publicKey());
        byte[] msg = MSG.clone();
        byte[] ctx = CTX.clone();
        int total = (msg.length + ctx.length) * 8;
        int b = bit % total;
        if (b < msg.length * 8) {
            msg[b >>> 3] ^= (byte) (1 << (b & 7));
        } else {
            b -= msg.length * 8;
            ctx[b >>> 3] ^= (byte) (1 << (b & 7));
        }
        assertFalse(v.verify(msg, ctx, SIGS.get(p)));
        assertTrue(v.verify(MSG, CTX, SIGS.get(p)));
    }

    @Property(tries = 200)
    void verify_arbitraryBytes_neverThrows(@ForAll HaetaeParameterSet p, @ForAll @Size(max = 3000) byte[] sig) {
        assertFalse(new HaetaeVerifier(KEYS.get(p).publicKey()).verify(MSG, CTX, sig));
        assertFalse(new HaetaeVerifier(KEYS.get(p).publicKey(), CTX, HaetaeEngine.COMPACT).verify(MSG, sig));
    }

    @Property(tries = 200)
    void verify_garbageOfTheExactLength_returnsFalseOnBothEngines(
            @ForAll HaetaeParameterSet p, @ForAll long seed, @ForAll boolean keepHeader) {
        Random r = new Random(seed);
        byte[] sig = new byte[p.signatureBytes()];
        r.nextBytes(sig);
        if (keepHeader) {
            // a genuine challenge, LowBits and size bytes in front of a random entropy-coded tail
            System.arraycopy(SIGS.get(p), 0, sig, 0, 32 + p.l() * 256 + 2);
        }
        assertFalse(new HaetaeVerifier(KEYS.get(p).publicKey()).verify(MSG, CTX, sig));
        assertFalse(new HaetaeVerifier(KEYS.get(p).publicKey(), CTX, HaetaeEngine.COMPACT).verify(MSG, sig));
    }

    @Provide
    Arbitrary<long[]> symbolSeeds() {
        return Arbitraries.longs().array(long[].class).ofSize(1);
    }

    @Property(tries = 200)
    void rans_encodeThenDecode_returnsTheSymbols(
            @ForAll HaetaeParameterSet p, @ForAll boolean hint, @ForAll long seed) {
        Rans.Table t = hint ? Rans.hTable(p) : Rans.hbZ1Table(p);
        int count = (hint ? p.k() : p.l()) * 256;
        Random r = new Random(seed);
        int[] syms = new int[count];
        // draw symbols from the table's own distribution so the code length stays realistic
        for (int i = 0; i < count; i++) {
            int slot = r.nextInt(Rans.SCALE);
            syms[i] = t.slotToSymbol[slot];
        }
        byte[] buf = new byte[count * 2];
        Rans.Encoder enc = new Rans.Encoder();
        enc.init(buf, 0, buf.length);
        for (int i = count - 1; i >= 0; i--) {
            assertTrue(enc.put(t, syms[i]));
        }
        int start = enc.flush();
        Rans.Decoder dec = new Rans.Decoder();
        assertTrue(dec.init(buf, start, buf.length - start));
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = dec.next(t);
        }
        assertTrue(dec.finish());
        assertArrayEquals(syms, out);
        // one byte less or more is detected
        Rans.Decoder shorter = new Rans.Decoder();
        if (shorter.init(buf, start, buf.length - start - 1)) {
            for (int i = 0; i < count; i++) {
                shorter.next(t);
            }
            assertFalse(shorter.finish());
        }
    }

    @Property(tries = 30)
    void keys_encodeThenDecode_roundTrip(@ForAll HaetaeParameterSet p, @ForAll @Size(32) byte[] seed) {
        HaetaeKeyPair kp = HaetaeKeyPairGenerator.fromSeed(p, seed);
        byte[] pk = kp.publicKey().getEncoded();
        byte[] sk = kp.privateKey().getEncoded();
        assertEquals(kp.publicKey(), HaetaePublicKey.fromEncoded(pk));
        HaetaePrivateKey back = HaetaePrivateKey.fromEncoded(p, sk);
        assertArrayEquals(sk, back.getEncoded());
        assertEquals(kp.publicKey(), back.publicKey());
        byte[] sig = new HaetaeSigner(back).sign(MSG, CTX);
        assertTrue(new HaetaeVerifier(HaetaePublicKey.fromEncoded(p, pk)).verify(MSG, CTX, sig));
    }

    @Property(tries = 100)
    void packing_roundTrips(@ForAll long seed) {
        Random r = new Random(seed);
        int[] a = new int[256];
        int[] b = new int[256];
        byte[] buf = new byte[512];
        for (int i = 0; i < 256; i++) {
            a[i] = r.nextInt(3) - 1;
        }
        Packing.packEta(buf, 0, a);
        Packing.unpackEta(b, buf, 0);
        assertArrayEquals(a, b);
        for (int i = 0; i < 256; i++) {
            a[i] = r.nextInt(5) - 2;
        }
        Packing.pack2Eta(buf, 0, a);
        Packing.unpack2Eta(b, buf, 0);
        assertArrayEquals(a, b);
        for (boolean fifteen : new boolean[] {true, false}) {
            for (int i = 0; i < 256; i++) {
                a[i] = r.nextInt(fifteen ? 1 << 15 : HaetaeParameterSet.Q);
            }
            Packing.packPolyQ(buf, 0, a, fifteen);
            Packing.unpackPolyQ(b, buf, 0, fifteen);
            assertArrayEquals(a, b);
        }
    }

    @Property(tries = 100)
    void keccak_matchesBouncyCastleShake(
            @ForAll @Size(max = 700) byte[] in,
            @ForAll boolean s256,
            @ForAll @IntRange(min = 0, max = 700) int outLen) {
        Keccak k = s256 ? new Keccak().initShake256() : new Keccak().initShake128();
        // absorb in two uneven pieces to exercise buffering
        int cut = in.length / 3;
        k.absorb(in, 0, cut).absorb(in, cut, in.length - cut);
        byte[] ours = new byte[outLen];
        int first = outLen / 2;
        k.squeeze(ours, 0, first);
        k.squeeze(ours, first, outLen - first);
        SHAKEDigest d = new SHAKEDigest(s256 ? 256 : 128);
        d.update(in, 0, in.length);
        byte[] theirs = new byte[outLen];
        d.doFinal(theirs, 0, outLen);
        assertArrayEquals(theirs, ours);
    }

    @Property(tries = 50)
    void ntt_inverseOfForward_isMontgomeryScaledIdentity(@ForAll long seed) {
        Random r = new Random(seed);
        int[] a = new int[256];
        int[] b = new int[256];
        for (int i = 0; i < 256; i++) {
            a[i] = r.nextInt(HaetaeParameterSet.Q);
        }
        System.arraycopy(a, 0, b, 0, 256);
        Ntt.forward(b);
        Ntt.inverseToMont(b);
        for (int i = 0; i < 256; i++) {
            // inverseToMont multiplies by 2^32: undo with one Montgomery reduction
            assertEquals(a[i], Reduce.freeze(Reduce.montgomery(b[i])));
        }
    }
}
