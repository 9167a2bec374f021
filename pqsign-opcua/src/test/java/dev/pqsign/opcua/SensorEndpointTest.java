package dev.pqsign.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SensorEndpointTest {

    @Test
    void parse_hostPortAndDefaultPort() {
        SensorEndpoint e = SensorEndpoint.parse("opc.tcp://[::1]/pqsign");
        assertEquals("::1", e.host());
        assertEquals(SensorEndpoint.DEFAULT_PORT, e.port());
    }

    @Test
    void parse_userInformation_neverShown_evenWhenItHoldsSlashQuestionMarkOrHash() {
        for (String url : List.of(
                "opc.tcp://rdr9:s3c/ret@127.0.0.1:4840/pqsign",
                "opc.tcp://rdr9:s3c?ret@127.0.0.1:4840/pqsign",
                "opc.tcp://rdr9:s3c#ret@127.0.0.1:4840/pqsign",
                "http://rdr9:s3cret@127.0.0.1:4840/pqsign")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SensorEndpoint.parse(url));
            assertTrue(e.getMessage().contains("credentials never go into a URL"), e.getMessage());
            assertFalse(e.getMessage().contains("s3c"), e.getMessage());
            assertFalse(e.getMessage().contains("rdr9"), e.getMessage());
            assertTrue(
                    e.getMessage().contains("127.0.0.1:4840/pqsign"), "what follows the @ is shown: " + e.getMessage());
        }
    }
}
