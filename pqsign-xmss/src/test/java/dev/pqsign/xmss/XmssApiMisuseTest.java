package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.StateStore;
import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What a caller of the public API cannot do: rewind or re-issue indices, use a destroyed key, or
 * change a signer's options after the fact.
 */
class XmssApiMisuseTest {
    private static final XmssParameterSet SET = XmssParameterSet.XMSSMT_SHA2_10_2_256;
    private static final byte[] MSG = "reading".getBytes(StandardCharsets.UTF_8);

    @Test
    void keyState_hasNoPublicConstructorAndNoPublicIndexMovingMethod() {
        assertEquals(0, XmssKeyState.class.getConstructors().length, "no public constructor");
        List<String> publicMethods = Arrays.stream(XmssKeyState.class.getMethods())
                .filter(m -> m.getDeclaringClass() == XmssKeyState.class)
                .map(Method::getName)
                .collect(Collectors.toList());
        for (String moving : List.of("withNextIndex", "withRange", "split")) {
            assertFalse(publicMethods.contains(moving), moving + " must not be public: " + publicMethods);
        }
        assertTrue(publicMethods.contains("fresh") && publicMethods.contains("decode"), publicMethods.toString());
    }

    @Test
    void signer_hasExactlyTwoOpenMethods_storeAndStorePlusOptions() throws Exception {
        List<Method> opens = Arrays.stream(XmssStatefulSigner.class.getMethods())
                .filter(m -> m.getName().equals("open") && Modifier.isStatic(m.getModifiers()))
                .collect(Collectors.toList());
        assertEquals(2, opens.size(), opens.toString());
        XmssStatefulSigner.class.getMethod("open", StateStore.class);
        XmssStatefulSigner.class.getMethod("open", StateStore.class, Options.class);
        assertEquals(0, Options.class.getConstructors().length, "Options has no public constructor");
    }

    @Test
    void options_withers_returnNewValuesAndLeaveTheOriginalUnchanged() {
        Options d = Options.defaults();
        Options changed = d.withBatch(8)
                .withThreads(3)
                .withReserveAhead(true)
                .withMidstates(true)
                .withKeepChains(false);
        assertEquals(1, d.batch());
        assertFalse(d.reserveAhead());
        assertFalse(d.midstates());
        assertTrue(d.keepChains());
        assertEquals(Runtime.getRuntime().availableProcessors(), d.threads());
        assertEquals(8, changed.batch());
        assertEquals(3, changed.threads());
        assertTrue(changed.reserveAhead());
        assertTrue(changed.midstates());
        assertFalse(changed.keepChains());
        assertEquals(Options.defaults().withBatch(8), d.withBatch(8));
        assertNotEquals(d, changed);
    }

    @Test
    void fresh_keyReadFromAState_isRefused() {
        XmssPrivateKey key = XmssStatefulSignerTest.key(SET, 51);
        byte[] used = XmssKeyState.fresh(key).withNextIndex(700).encode();
        XmssKeyState loaded = XmssKeyState.decode(used);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> XmssKeyState.fresh(loaded.key()));
        assertTrue(e.getMessage().contains("fresh state"), e.getMessage());
        MemoryStateStore other = MemoryStateStore.empty("other");
        assertThrows(IllegalArgumentException.class, () -> XmssStatefulSigner.create(other, loaded.key()));
        assertThrows(IllegalStateException.class, other::bytes, "nothing was written");
    }

    @Test
    void destroyedKey_refusesEncodePublicKeyFreshAndCreate() {
        XmssPrivateKey key = XmssStatefulSignerTest.key(SET, 52);
        XmssKeyState state = XmssKeyState.fresh(key);
        assertEquals(XmssKeyState.encodedLength(SET.n()), state.encode().length, "usable before destroy");
        assertFalse(key.isDestroyed());
        key.destroy();
        assertTrue(key.isDestroyed());
        IllegalStateException e = assertThrows(IllegalStateException.class, state::encode);
        assertTrue(e.getMessage().contains("destroyed"), e.getMessage());
        assertThrows(IllegalStateException.class, key::publicKey);
        assertThrows(IllegalStateException.class, () -> XmssKeyState.fresh(key));
        assertThrows(IllegalStateException.class, () -> XmssStatefulSigner.create(MemoryStateStore.empty("x"), key));
        assertThrows(IllegalStateException.class, () -> new XmssSigning(key));
        assertTrue(key.toString().contains("secrets hidden"), "toString still works and hides secrets");
    }

    @Test
    void closedSigner_destroysItsKey_butStillReportsThePublicKey() throws Exception {
        XmssPrivateKey key = XmssStatefulSignerTest.key(SET, 53);
        byte[] pub = key.publicKey().encoded();
        MemoryStateStore store =
                MemoryStateStore.holding(XmssKeyState.fresh(key).encode());
        XmssStatefulSigner signer =
                XmssStatefulSigner.open(store, Options.defaults().withThreads(1));
        XmssVerifier verifier = new XmssVerifier(signer.publicKey());
        assertTrue(verifier.verify(MSG, signer.sign(MSG)));
        signer.close();
        assertArrayEquals(pub, signer.publicKey().encoded());
        assertThrows(IllegalStateException.class, () -> signer.sign(MSG));
        assertEquals(1, XmssKeyState.decode(store.bytes()).nextIndex(), "the used index stays burned");
    }
}
