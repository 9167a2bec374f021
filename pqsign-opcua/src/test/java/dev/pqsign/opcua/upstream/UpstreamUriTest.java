package dev.pqsign.opcua.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class UpstreamUriTest {

    @Test
    void parse_nodesEscapedAndInOrder() {
        UpstreamUri u =
                UpstreamUri.parse("opcua:opc.tcp://plc/path?node=ns=3;s=Motor.Speed&node=ns=2;s=T%C3%BCr%26%23");
        assertEquals("opc.tcp://plc/path", u.endpoint().url());
        assertEquals(4840, u.endpoint().port());
        assertEquals(List.of("ns=3;s=Motor.Speed", "ns=2;s=Tür&#"), u.nodes());
    }

    @Test
    void parse_passwordWithQuestionMarkHashOrSlash_isRefusedWithoutShowingIt() {
        // found by UpstreamFuzzTest: these characters ended the authority early, and the endpoint's
        // message showed the password, or its beginning, on the sensor's standard error
        for (String secret : List.of("pa?ss-word", "pa#ss-word", "pa/ss-word", "pass@word")) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> UpstreamUri.parse("opcua:opc.tcp://reader:" + secret + "@127.0.0.1:4840/plc?node=i=2258"));
            assertTrue(e.getMessage().contains("credentials never go into a URL"), e.getMessage());
            assertFalse(e.getMessage().contains("pa"), e.getMessage());
            assertFalse(e.getMessage().contains("reader"), e.getMessage());
        }
    }

    @Test
    void parse_anAtInANode_isANodeCharacter() {
        assertEquals(
                List.of("ns=2;s=op@line3"),
                UpstreamUri.parse("opcua:opc.tcp://plc?node=ns=2;s=op@line3").nodes());
    }
}
