package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.opcua.upstream.UpstreamUri;
import dev.pqsign.telemetry.upstream.UpstreamEvent;
import dev.pqsign.telemetry.upstream.UpstreamRefused;
import dev.pqsign.telemetry.upstream.UpstreamStatus;
import dev.pqsign.telemetry.upstream.UpstreamText;
import dev.pqsign.telemetry.upstream.UpstreamUp;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;

/**
 * The two texts of {@code pqsign sensor --source opcua:} that come from outside a parser: the
 * upstream source ({@link UpstreamUri#parse}: {@code opcua:opc.tcp://HOST[:PORT][/PATH]?node=…},
 * docs/telemetry.md) and the upstream reading texts a verifier reads back ({@link
 * UpstreamText#parse}, docs/formats/signed-reading.md, "Upstream readings").
 *
 * <p>Input: a mode byte, then the text's bytes. Bit 0 of the mode: 0 an upstream reading text, 1 an
 * upstream source. Bit 1: the bytes as UTF-16BE (any UTF-16 code unit, lone surrogates included)
 * instead of ISO-8859-1 for a reading text (every byte one character) or UTF-8 for a source (as a
 * shell hands over an argument). Bit 2 (sources): {@code opcua:} is put in front.
 *
 * <p>Asserts, for reading texts: the only failure is an {@link IllegalArgumentException} with a
 * one-line message; a text that parses is exactly the text of the fact it gives (one text per
 * fact), and that text parses to an equal fact. For sources: the only failure is an
 * {@link IllegalArgumentException} with a one-line message, and the message does not depend on
 * what stands between {@code ://} and an {@code @} of the endpoint part (user information is never
 * echoed: the same source with every letter and digit there replaced gives the same message); an
 * accepted source has an endpoint URL of at most {@value UpstreamUp#MAX_URL_CHARS} characters and
 * 1 … {@value UpstreamUri#MAX_NODES} distinct nodes of 1 … {@value UpstreamText#MAX_NODE_CHARS}
 * characters in the NodeId string form; written again with {@code %} escapes it parses to the same
 * endpoint and nodes; and each node goes through an upstream text ({@code refused node=…}) and back
 * unchanged.
 */
class UpstreamFuzzTest {

    @FuzzTest
    void fuzz(byte[] data) {
        if (data.length < 1) {
            return;
        }
        int mode = data[0] & 0xff;
        byte[] bytes = Arrays.copyOfRange(data, 1, data.length);
        boolean utf16 = (mode & 2) != 0;
        if ((mode & 1) == 0) {
            readingText(new String(bytes, utf16 ? StandardCharsets.UTF_16BE : StandardCharsets.ISO_8859_1));
        } else {
            String s = new String(bytes, utf16 ? StandardCharsets.UTF_16BE : StandardCharsets.UTF_8);
            source((mode & 4) != 0 ? UpstreamUri.SCHEME + s : s);
        }
    }

    private static void readingText(String text) {
        UpstreamEvent e;
        try {
            e = UpstreamText.parse(text);
        } catch (IllegalArgumentException refused) {
            oneLine(refused);
            return;
        }
        assertEquals(text, e.text(), "a fact has one text");
        assertEquals(e, UpstreamText.parse(e.text()));
    }

    private static void source(String source) {
        UpstreamUri uri;
        try {
            uri = UpstreamUri.parse(source);
        } catch (IllegalArgumentException refused) {
            oneLine(refused);
            String masked = maskUserInformation(source);
            if (!masked.equals(source)) {
                String other = null;
                try {
                    UpstreamUri.parse(masked);
                } catch (IllegalArgumentException e) {
                    other = e.getMessage();
                }
                assertEquals(refused.getMessage(), other, "the message shows user information");
            }
            return;
        }
        assertTrue(uri.endpoint().url().length() <= UpstreamUp.MAX_URL_CHARS);
        List<String> nodes = uri.nodes();
        assertFalse(nodes.isEmpty());
        assertTrue(nodes.size() <= UpstreamUri.MAX_NODES);
        assertEquals(nodes.size(), new HashSet<>(nodes).size(), "distinct nodes");
        StringBuilder again = new StringBuilder(UpstreamUri.SCHEME)
                .append(uri.endpoint().url())
                .append('?');
        for (int i = 0; i < nodes.size(); i++) {
            String node = nodes.get(i);
            assertTrue(node.length() >= 1 && node.length() <= UpstreamText.MAX_NODE_CHARS, node);
            assertTrue(NodeId.parseSafe(node).isPresent(), node);
            again.append(i == 0 ? "" : "&").append("node=").append(escaped(node));
            if (i < 8) {
                UpstreamRefused fact = new UpstreamRefused(node, UpstreamStatus.GOOD);
                assertEquals(fact, UpstreamText.parse(fact.text()), "a node through an upstream text and back");
            }
        }
        UpstreamUri reparsed = UpstreamUri.parse(again.toString());
        assertEquals(uri.endpoint().url(), reparsed.endpoint().url());
        assertEquals(nodes, reparsed.nodes());
    }

    /** The node as a query value: {@code %}, {@code &} and {@code #} escaped, everything else as is. */
    private static String escaped(String node) {
        return node.replace("%", "%25").replace("&", "%26").replace("#", "%23");
    }

    /**
     * The source with every letter and digit between the first {@code ://} and the last {@code @}
     * before the first {@code ?node=} replaced by {@code Z} (the same source otherwise), or the source
     * itself if there is no such {@code @}.
     */
    static String maskUserInformation(String source) {
        int from = source.indexOf("://");
        if (from < 0) {
            return source;
        }
        from += 3;
        int query = source.indexOf("?node=", from);
        int at = source.lastIndexOf('@', query < 0 ? source.length() - 1 : query - 1);
        if (at < from) {
            return source;
        }
        StringBuilder sb = new StringBuilder(source);
        for (int i = from; i < at; i++) {
            if (Character.isLetterOrDigit(sb.charAt(i))) {
                sb.setCharAt(i, 'Z');
            }
        }
        return sb.toString();
    }

    private static void oneLine(IllegalArgumentException e) {
        String m = e.getMessage();
        assertNotNull(m, "a refusal says why");
        assertFalse(m.isBlank());
        assertTrue(m.indexOf('\n') < 0 && m.indexOf('\r') < 0, "one line: " + m);
    }
}
