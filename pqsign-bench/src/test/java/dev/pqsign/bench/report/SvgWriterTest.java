package dev.pqsign.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class SvgWriterTest {

    static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void bars_withMarkupInLabels_isWellFormedSvg() throws Exception {
        String svg = Charts.bars("a <b> & \"c\" 'd'", List.of(
                new Charts.Bar("XMSSMT-SHA2_10/2_256", "pqsign", 0.156),
                new Charts.Bar("XMSSMT-SHA2_10/2_256", "bouncycastle", 8.1),
                new Charts.Bar("set <&>\u0001", "x&y", 1234.5)));
        Document d = parse(svg);
        assertEquals("svg", d.getDocumentElement().getLocalName());
        assertEquals("http://www.w3.org/2000/svg", d.getDocumentElement().getNamespaceURI());
        assertEquals(1 + 3 + 3, d.getElementsByTagName("rect").getLength(), "background, 3 bars, 3 legend swatches");
        assertTrue(d.getDocumentElement().getTextContent().contains("a <b> & \"c\" 'd'"));
    }

    @Test
    void ranges_isWellFormedSvg() throws Exception {
        Document d = parse(Charts.ranges("OPC UA", List.of(
                new Charts.Range("XMSSMT-SHA2_10/2_256", "ethernet", 1.2, 3.4, 9.9),
                new Charts.Range("XMSSMT-SHA2_10/2_256", "5g", 85, 95, 130))));
        assertEquals(2 * 2, d.getElementsByTagName("circle").getLength());
    }

    @Test
    void bars_withNoPositiveValues_stillWellFormed() throws Exception {
        parse(Charts.bars("empty", List.of(new Charts.Bar("g", "s", 0))));
        parse(Charts.bars("none", List.of()));
    }

    @Test
    void logRange_coversTheValuesWithDecades() {
        double[] r = Charts.logRange(new double[] {0.156, 8.1, 153});
        assertEquals(0.1, r[0], 1e-12);
        assertEquals(1000, r[1], 1e-9);
    }
}
