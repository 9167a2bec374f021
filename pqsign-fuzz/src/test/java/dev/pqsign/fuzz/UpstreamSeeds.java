package dev.pqsign.fuzz;

import dev.pqsign.telemetry.upstream.ChannelSecurity;
import dev.pqsign.telemetry.upstream.LostFacts;
import dev.pqsign.telemetry.upstream.LostInSensor;
import dev.pqsign.telemetry.upstream.LostNotifications;
import dev.pqsign.telemetry.upstream.LostUpstream;
import dev.pqsign.telemetry.upstream.ScalarType;
import dev.pqsign.telemetry.upstream.UpstreamDown;
import dev.pqsign.telemetry.upstream.UpstreamEvent;
import dev.pqsign.telemetry.upstream.UpstreamNoValue;
import dev.pqsign.telemetry.upstream.UpstreamRefused;
import dev.pqsign.telemetry.upstream.UpstreamStatus;
import dev.pqsign.telemetry.upstream.UpstreamTime;
import dev.pqsign.telemetry.upstream.UpstreamUnsupported;
import dev.pqsign.telemetry.upstream.UpstreamUp;
import dev.pqsign.telemetry.upstream.UpstreamValue;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

/**
 * The seeds of {@link UpstreamFuzzTest}: one upstream reading text of every kind and of every value
 * type (made by the facts' own constructors, so they are the sensor's texts), and upstream sources
 * as a plant writes them ({@link SeedCorpus} writes them with the others).
 */
final class UpstreamSeeds {
    private static final String NODE = "ns=3;s=Motor.Speed";
    private static final UpstreamTime T = UpstreamTime.of(Instant.parse("2026-12-03T10:15:30.1234567Z"));

    private UpstreamSeeds() {}

    static void add(Map<String, byte[]> out) {
        text(out, "value-double", UpstreamValue.of(NODE, ScalarType.DOUBLE, "1503.27", T, UpstreamStatus.GOOD));
        text(out, "value-boolean", UpstreamValue.of("i=2258", ScalarType.BOOLEAN, "true", null, UpstreamStatus.GOOD));
        text(
                out,
                "value-uint64-uncertain",
                UpstreamValue.of(
                        NODE,
                        ScalarType.UINT64,
                        "18446744073709551615",
                        new UpstreamTime(0),
                        new UpstreamStatus("Uncertain_LastUsableValue", 0x0480)));
        text(
                out,
                "value-float-nan",
                UpstreamValue.of(NODE, ScalarType.FLOAT, "NaN", T, UpstreamStatus.unnamed(0x80ab0000L)));
        text(out, "value-datetime", UpstreamValue.of(NODE, ScalarType.DATE_TIME, T.text(), T, UpstreamStatus.GOOD));
        text(
                out,
                "value-string-escapes",
                UpstreamValue.ofString(
                        "ns=2;s=\"Tür\"", "a\"b\\c\n\t\u00e9\uD83D\uDE00\u007f", T, UpstreamStatus.GOOD));
        text(
                out,
                "value-string-truncated",
                UpstreamValue.ofString(NODE, "x\u00e9".repeat(2100), T, UpstreamStatus.GOOD));
        text(out, "novalue", new UpstreamNoValue(NODE, T, new UpstreamStatus("Bad_NotConnected", 0)));
        text(out, "unsupported", new UpstreamUnsupported(NODE, "ByteString[]", null, UpstreamStatus.GOOD));
        text(
                out,
                "refused",
                new UpstreamRefused(
                        "ns=7;g=09087e75-8e5e-499b-954f-f2a9603db28a", new UpstreamStatus("Bad_NodeIdUnknown", 0)));
        text(out, "lost-upstream", new LostUpstream(NODE));
        text(out, "lost-subscription", new LostNotifications());
        text(out, "lost-sensor", new LostInSensor(NODE, 42, T, new UpstreamTime(Long.MAX_VALUE)));
        text(out, "lost-facts", new LostFacts(3));
        text(out, "down", UpstreamDown.of(T, "connection refused: 127.0.0.1:4840"));
        text(out, "up-first", new UpstreamUp("opc.tcp://plc:4840/path", ChannelSecurity.SIGN_AND_ENCRYPT, null));
        text(out, "up-after-down", new UpstreamUp("opc.tcp://[::1]:4840", ChannelSecurity.SIGN, T));
        source(out, "source-two-nodes", 1, "opcua:opc.tcp://plc:4840/path?node=ns=3;s=Motor.Speed&node=i=2258");
        source(
                out,
                "source-escapes",
                1,
                "opcua:opc.tcp://127.0.0.1/plc?node=ns=2;s=T%C3%BCr%26Tor%23%25&node=ns=2;b=AAE=");
        source(
                out,
                "source-ipv6-no-scheme",
                5,
                "opc.tcp://[::1]:48400?node=ns=1;g=09087e75-8e5e-499b-954f-f2a9603db28a");
        source(out, "source-user-information", 1, "opcua:opc.tcp://user:secret@plc:4840/path?node=i=2258");
    }

    private static void text(Map<String, byte[]> out, String name, UpstreamEvent e) {
        out.put(
                SeedCorpus.inputs(UpstreamFuzzTest.class, name),
                SeedCorpus.prefixed((byte) 0, e.text().getBytes(StandardCharsets.ISO_8859_1)));
    }

    private static void source(Map<String, byte[]> out, String name, int mode, String source) {
        out.put(
                SeedCorpus.inputs(UpstreamFuzzTest.class, name),
                SeedCorpus.prefixed((byte) mode, source.getBytes(StandardCharsets.UTF_8)));
    }
}
