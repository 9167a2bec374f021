package dev.pqsign.bench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class SvgWriterTest {

    static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void bars_withMarkupInLabels_isWellFormedSvg() throws Exception {
        String svg = Charts.bars(
                "a <b> & \"c\" 'd'",
                List.of(
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
    void distributions_oneLinePerSeriesWithinThePlotArea() throws Exception {
        List<Charts.Distribution> series = List.of(
                new Charts.Distribution("ethernet", "XMSSMT-SHA2_10/2_256", List.of(9.4, 8.9, 72.2, 10.1)),
                new Charts.Distribution("ethernet", "XMSSMT-SHA2_20/4_256", List.of(10.5, 11.0, 14.0)),
                new Charts.Distribution("5g", "XMSSMT-SHA2_10/2_256", List.of(87.8, 93.6, 85.0, 90.2, 88.8)),
                new Charts.Distribution("5g", "XMSSMT-SHA2_20/4_256", List.of(113.7, 120.9, 110.0)));
        Document d = parse(Charts.distributions("OPC UA <&>", "latency", series));
        NodeList lines = d.getElementsByTagName("polyline");
        List<Element> curves = new ArrayList<>();
        for (int i = 0; i < lines.getLength(); i++) {
            Element e = (Element) lines.item(i);
            if (e.getElementsByTagName("title").getLength() == 1) {
                curves.add(e); // the legend swatches have no tooltip
            }
        }
        assertEquals(series.size(), curves.size(), "one step line per series");
        assertEquals(2 * series.size(), lines.getLength(), "step lines and legend swatches");
        // the axis spans the values on the 1-2-5 grid: 5 ms .. 200 ms
        String text = d.getDocumentElement().getTextContent();
        List<String> labels = new ArrayList<>();
        NodeList texts = d.getElementsByTagName("text");
        for (int i = 0; i < texts.getLength(); i++) {
            labels.add(texts.item(i).getTextContent());
        }
        assertTrue(
                labels.containsAll(List.of("5 ms", "10 ms", "20 ms", "50 ms", "100 ms", "200 ms")), labels.toString());
        assertFalse(labels.contains("2 ms") || labels.contains("500 ms"), labels.toString());
        int width = Integer.parseInt(d.getDocumentElement().getAttribute("width"));
        for (int c = 0; c < curves.size(); c++) {
            Element e = curves.get(c);
            String[] pts = e.getAttribute("points").trim().split(" ");
            assertEquals(2 * series.get(c).samplesMs().size(), pts.length, "two points per sample");
            double prevX = 0;
            double prevY = Double.MAX_VALUE;
            for (String p : pts) {
                double x = Double.parseDouble(p.split(",")[0]);
                double y = Double.parseDouble(p.split(",")[1]);
                assertTrue(x >= 70 && x <= width - 40, "x " + x + " inside the plot");
                assertTrue(y >= 50 && y <= 370, "y " + y + " inside the plot");
                assertTrue(x >= prevX && y <= prevY, "a cumulative distribution only rises to the right");
                prevX = x;
                prevY = y;
            }
            assertEquals(50.0, prevY, 1e-9, "ends at 100 %");
            String tip = e.getElementsByTagName("title").item(0).getTextContent();
            assertTrue(
                    tip.startsWith(
                            series.get(c).colourKey() + " · " + series.get(c).dashKey()),
                    tip);
        }
        // the 5g lines lie right of the ethernet lines at their medians
        assertTrue(firstX(curves.get(2)) > firstX(curves.get(0)));
        // colour per link, dash pattern per set
        assertEquals(curves.get(0).getAttribute("stroke"), curves.get(1).getAttribute("stroke"));
        assertNotEquals(curves.get(0).getAttribute("stroke"), curves.get(2).getAttribute("stroke"));
        assertEquals(
                curves.get(0).getAttribute("stroke-dasharray"), curves.get(2).getAttribute("stroke-dasharray"));
        assertNotEquals(
                curves.get(0).getAttribute("stroke-dasharray"), curves.get(1).getAttribute("stroke-dasharray"));
        assertTrue(text.contains("ethernet · XMSSMT-SHA2_10/2_256 (n = 4)"), "legend with the number of readings");
        assertTrue(text.contains("5g · XMSSMT-SHA2_10/2_256 (n = 5)"), text);
        assertTrue(text.contains("latency") && text.contains("share of readings"), "axis labels");
    }

    private static double firstX(Element polyline) {
        return Double.parseDouble(
                polyline.getAttribute("points").trim().split(" ")[0].split(",")[0]);
    }

    @Test
    void distributions_emptySeries_legendOnlyAndWellFormed() throws Exception {
        Document d = parse(Charts.distributions("t", "x", List.of(new Charts.Distribution("5g", "s", List.of()))));
        assertEquals(1, d.getElementsByTagName("polyline").getLength(), "the legend swatch only");
        assertTrue(d.getDocumentElement().getTextContent().contains("(n = 0)"));
    }

    @Test
    void tick_dropsTrailingZeros() {
        assertEquals("0.5 ms", Charts.tick(0.5));
        assertEquals("20 ms", Charts.tick(20));
        assertEquals("1000 ms", Charts.tick(1000));
        assertEquals("5 µs", Charts.tick(0.005));
        assertEquals("0.01 ms", Charts.tick(0.01));
    }

    @Test
    void niceLogRange_snapsToTheOneTwoFiveGrid() {
        assertArrayEquals(new double[] {5, 200}, Charts.niceLogRange(new double[] {8.9, 148.7}), 1e-9);
        assertArrayEquals(new double[] {0.2, 0.5}, Charts.niceLogRange(new double[] {0.2, 0.31}), 1e-12);
        assertArrayEquals(new double[] {1, 2}, Charts.niceLogRange(new double[] {1, 1}), 1e-12);
        assertArrayEquals(new double[] {1, 2, 5, 10, 20}, Charts.ticks125(1, 20), 1e-12);
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
