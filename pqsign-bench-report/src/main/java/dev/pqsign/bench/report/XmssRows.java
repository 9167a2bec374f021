package dev.pqsign.bench.report;

import static dev.pqsign.bench.report.BenchRunner.MESSAGE;

import dev.pqsign.bench.report.BenchReport.Sizes;
import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.xmss.WotsDerivation;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import dev.pqsign.xmss.XmssVerifier;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.XMSSMTKeyPairGenerator;
import org.bouncycastle.crypto.params.XMSSMTKeyGenerationParameters;
import org.bouncycastle.crypto.params.XMSSMTParameters;
import org.bouncycastle.crypto.params.XMSSMTPrivateKeyParameters;
import org.bouncycastle.crypto.params.XMSSMTPublicKeyParameters;
import org.bouncycastle.crypto.signers.XMSSMTSigner;

/**
 * The XMSS^MT rows of the report: keygen on all cores and on one thread, signing through
 * {@link XmssStatefulSigner} on an in-memory store, verification; then BouncyCastle 1.87's
 * {@code XMSSMTSigner} for the same set.
 */
final class XmssRows {
    private final Measurements m;

    XmssRows(Measurements m) {
        this.m = m;
    }

    /**
     * Runs the XMSS code paths (keygen on all cores and on one thread, signing, verification) for at
     * least 3 s (JIT compilation lags on a loaded machine) before the first measured case, so the
     * first case does not pay for class loading and the first JIT compilations that every later case
     * reuses.
     */
    void warmUp() {
        BenchOptions o = m.options();
        long end = System.nanoTime() + (o.warmupMs() == 0 ? 0 : Math.max(3 * o.warmupMs(), 3000)) * 1_000_000L;
        XmssParameterSet p = XmssParameterSet.XMSSMT_SHA2_10_2_256;
        int rounds = 0;
        do {
            XmssPrivateKey key = generate(p, rounds % 2 == 0 ? m.cores() : 1);
            MemoryStateStore store =
                    MemoryStateStore.holding(XmssKeyState.fresh(key).encode());
            try (XmssStatefulSigner s =
                    XmssStatefulSigner.open(store, Options.defaults().withThreads(m.cores()))) {
                XmssVerifier v = new XmssVerifier(key.publicKey());
                for (int i = 0; i < 20; i++) {
                    Measurer.consume(v.verify(MESSAGE, s.sign(MESSAGE)) ? 1 : 0);
                }
            }
            rounds++;
        } while (System.nanoTime() < end);
    }

    void run(XmssParameterSet p) throws Exception {
        pqsign(p);
        if (m.options().bouncyCastle()) {
            bouncyCastle(p);
        }
    }

    private XmssPrivateKey generate(XmssParameterSet p, int threads) {
        return XmssKeyGenerator.generate(p, WotsDerivation.SP800_208, m.random(), threads, null);
    }

    private void pqsign(XmssParameterSet p) throws Exception {
        String name = p.setName();
        int cores = m.cores();
        m.record(name, "keygen", "pqsign", cores, () -> generate(p, cores));
        m.record(name, "keygen", "pqsign", 1, () -> generate(p, 1));

        XmssSigning signing = new XmssSigning(p);
        m.record(name, "sign", "pqsign", 1, signing);
        byte[] sig = signing.lastSignature;
        XmssVerifier verifier = new XmssVerifier(signing.key.publicKey());
        if (!verifier.verify(MESSAGE, sig)) {
            throw new IllegalStateException(name + ": pqsign signature does not verify");
        }
        m.record(name, "verify", "pqsign", 1, () -> verifier.verify(MESSAGE, sig));
        int state = XmssKeyState.encodedLength(p.n());
        m.size(new Sizes(
                name, "pqsign", p.publicKeyBytes(), state, state, signing.lengths.min(), signing.lengths.max()));
        signing.signer.close();
    }

    private void bouncyCastle(XmssParameterSet p) throws Exception {
        String name = p.setName();
        XMSSMTParameters bp = new XMSSMTParameters(p.height(), p.layers(), new SHA256Digest());
        m.record(name, "keygen", "bouncycastle", 1, () -> bcKeyPair(bp));
        BcXmssSigning bs = new BcXmssSigning(bp);
        m.record(name, "sign", "bouncycastle", 1, bs);
        byte[] bsig = bs.lastSignature;
        XMSSMTSigner bv = new XMSSMTSigner();
        bv.init(false, bs.keys.getPublic());
        bv.update(MESSAGE, 0, MESSAGE.length);
        if (!bv.verifySignature(bsig)) {
            throw new IllegalStateException(name + ": BouncyCastle signature does not verify");
        }
        m.record(name, "verify", "bouncycastle", 1, () -> {
            bv.update(MESSAGE, 0, MESSAGE.length);
            return bv.verifySignature(bsig);
        });
        XMSSMTPrivateKeyParameters priv = (XMSSMTPrivateKeyParameters) bs.keys.getPrivate();
        int privLen = priv.getEncoded().length;
        int pubLen = ((XMSSMTPublicKeyParameters) bs.keys.getPublic()).getEncoded().length;
        m.size(new Sizes(name, "bouncycastle", pubLen, privLen, privLen, bsig.length, bsig.length));
    }

    private AsymmetricCipherKeyPair bcKeyPair(XMSSMTParameters bp) {
        XMSSMTKeyPairGenerator g = new XMSSMTKeyPairGenerator();
        g.init(new XMSSMTKeyGenerationParameters(bp, m.random()));
        return g.generateKeyPair();
    }

    /** Signs through {@link XmssStatefulSigner} on an in-memory store; an exhausted key is replaced untimed. */
    private final class XmssSigning implements Measurer.Operation {
        final XmssParameterSet p;
        final SignatureLengths lengths = new SignatureLengths();
        XmssPrivateKey key;
        XmssStatefulSigner signer;
        byte[] lastSignature;

        XmssSigning(XmssParameterSet p) {
            this.p = p;
            replace();
        }

        private void replace() {
            if (signer != null) {
                signer.close();
            }
            key = generate(p, m.cores());
            signer = XmssStatefulSigner.open(
                    MemoryStateStore.holding(XmssKeyState.fresh(key).encode()),
                    Options.defaults().withThreads(m.cores()));
        }

        @Override
        public void beforeSample() {
            if (signer.remaining() == 0) {
                replace();
            }
        }

        @Override
        public Object run() {
            lastSignature = lengths.seen(signer.sign(MESSAGE));
            return lastSignature;
        }
    }

    /** BouncyCastle's XMSSMTSigner; an exhausted key is replaced, untimed. */
    private final class BcXmssSigning implements Measurer.Operation {
        final XMSSMTParameters bp;
        final XMSSMTSigner signer = new XMSSMTSigner();
        AsymmetricCipherKeyPair keys;
        byte[] lastSignature;

        BcXmssSigning(XMSSMTParameters bp) {
            this.bp = bp;
            replace();
        }

        private void replace() {
            keys = bcKeyPair(bp);
            signer.init(true, keys.getPrivate());
        }

        @Override
        public void beforeSample() {
            if (signer.getUsagesRemaining() == 0) {
                replace();
            }
        }

        @Override
        public Object run() throws Exception {
            signer.update(MESSAGE, 0, MESSAGE.length);
            lastSignature = signer.generateSignature();
            return lastSignature;
        }
    }
}
