package dev.pqsign.console.internal;

/**
 * The number a chart plots for a reading: the text before the first comma (the simulated sensor's
 * {@code RPM,TIMESTAMP}), or the whole text, if it is a finite decimal; otherwise nothing is plotted.
 */
final class ReadingValue {

    private ReadingValue() {}

    static Double parse(String reading) {
        int comma = reading.indexOf(',');
        String head = (comma < 0 ? reading : reading.substring(0, comma)).trim();
        if (head.isEmpty() || head.length() > 40) {
            return null;
        }
        for (int i = 0; i < head.length(); i++) {
            char c = head.charAt(i);
            // Plain decimals only: Double.parseDouble would also take "NaN", "Infinity" and hex floats.
            if (!(c >= '0' && c <= '9') && c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E') {
                return null;
            }
        }
        try {
            double v = Double.parseDouble(head);
            return Double.isFinite(v) ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
