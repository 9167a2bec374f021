package dev.pqsign.bench.report;

import java.util.Locale;

/** A minimal SVG 1.1 document builder: escapes all text and attribute values, so the output is well-formed XML. */
final class SvgWriter {
    private final StringBuilder b = new StringBuilder(16384);
    private final int width;
    private final int height;

    SvgWriter(int width, int height) {
        this.width = width;
        this.height = height;
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"")
                .append(width)
                .append("\" height=\"")
                .append(height)
                .append("\" viewBox=\"0 0 ")
                .append(width)
                .append(' ')
                .append(height)
                .append("\" font-family=\"sans-serif\" font-size=\"12\">\n")
                .append("<rect x=\"0\" y=\"0\" width=\"")
                .append(width)
                .append("\" height=\"")
                .append(height)
                .append("\" fill=\"white\"/>\n");
    }

    int width() {
        return width;
    }

    int height() {
        return height;
    }

    SvgWriter rect(double x, double y, double w, double h, String fill, String tooltip) {
        b.append("<rect x=\"")
                .append(f(x))
                .append("\" y=\"")
                .append(f(y))
                .append("\" width=\"")
                .append(f(w))
                .append("\" height=\"")
                .append(f(h))
                .append("\" fill=\"")
                .append(esc(fill))
                .append('"');
        if (tooltip != null) {
            b.append("><title>").append(esc(tooltip)).append("</title></rect>\n");
        } else {
            b.append("/>\n");
        }
        return this;
    }

    SvgWriter line(double x1, double y1, double x2, double y2, String stroke, double width, boolean dashed) {
        b.append("<line x1=\"")
                .append(f(x1))
                .append("\" y1=\"")
                .append(f(y1))
                .append("\" x2=\"")
                .append(f(x2))
                .append("\" y2=\"")
                .append(f(y2))
                .append("\" stroke=\"")
                .append(esc(stroke))
                .append("\" stroke-width=\"")
                .append(f(width))
                .append('"');
        if (dashed) {
            b.append(" stroke-dasharray=\"3,3\"");
        }
        b.append("/>\n");
        return this;
    }

    SvgWriter circle(double cx, double cy, double r, String fill, String tooltip) {
        b.append("<circle cx=\"")
                .append(f(cx))
                .append("\" cy=\"")
                .append(f(cy))
                .append("\" r=\"")
                .append(f(r))
                .append("\" fill=\"")
                .append(esc(fill))
                .append('"');
        if (tooltip != null) {
            b.append("><title>").append(esc(tooltip)).append("</title></circle>\n");
        } else {
            b.append("/>\n");
        }
        return this;
    }

    /**
     * An unfilled polyline through ({@code xs[i]}, {@code ys[i]}); {@code dash} is an SVG dash array
     * ("6,3") or {@code null} for a solid line.
     */
    SvgWriter polyline(double[] xs, double[] ys, String stroke, double width, String dash, String tooltip) {
        if (xs.length != ys.length) {
            throw new IllegalArgumentException("xs and ys differ in length");
        }
        b.append("<polyline points=\"");
        for (int i = 0; i < xs.length; i++) {
            b.append(i == 0 ? "" : " ").append(f(xs[i])).append(',').append(f(ys[i]));
        }
        b.append("\" fill=\"none\" stroke=\"")
                .append(esc(stroke))
                .append("\" stroke-width=\"")
                .append(f(width))
                .append('"');
        if (dash != null) {
            b.append(" stroke-dasharray=\"").append(esc(dash)).append('"');
        }
        if (tooltip != null) {
            b.append("><title>").append(esc(tooltip)).append("</title></polyline>\n");
        } else {
            b.append("/>\n");
        }
        return this;
    }

    /** Text; {@code anchor} is start, middle or end. */
    SvgWriter text(double x, double y, String text, String anchor, int size, boolean bold) {
        b.append("<text x=\"")
                .append(f(x))
                .append("\" y=\"")
                .append(f(y))
                .append("\" text-anchor=\"")
                .append(esc(anchor))
                .append("\" font-size=\"")
                .append(size)
                .append('"');
        if (bold) {
            b.append(" font-weight=\"bold\"");
        }
        b.append('>').append(esc(text)).append("</text>\n");
        return this;
    }

    String finish() {
        return b + "</svg>\n";
    }

    static String f(double d) {
        return String.format(Locale.ROOT, "%.1f", d);
    }

    static String esc(String s) {
        StringBuilder o = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> o.append("&lt;");
                case '>' -> o.append("&gt;");
                case '&' -> o.append("&amp;");
                case '"' -> o.append("&quot;");
                case '\'' -> o.append("&apos;");
                default -> {
                    // XML 1.0 forbids most control characters even as references
                    if (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') {
                        o.append(c);
                    }
                }
            }
        }
        return o.toString();
    }
}
