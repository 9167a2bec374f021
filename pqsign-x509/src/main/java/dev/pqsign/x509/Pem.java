package dev.pqsign.x509;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * PEM (RFC 7468) reading and writing for certificates and public keys: {@code -----BEGIN LABEL-----},
 * Base64 lines, {@code -----END LABEL-----}. Text outside blocks (e.g. {@code openssl x509 -text}
 * output before the block) is ignored, as RFC 7468 allows; inside a block only Base64 and whitespace
 * are accepted, and BEGIN and END labels must match.
 */
public final class Pem {
    /** RFC 7468 label of an X.509 certificate. */
    public static final String CERTIFICATE = "CERTIFICATE";
    /** RFC 7468 label of a SubjectPublicKeyInfo. */
    public static final String PUBLIC_KEY = "PUBLIC KEY";
    /** RFC 7468 label of a PKCS#8 PrivateKeyInfo (HAETAE only; XMSS private keys are never exported). */
    public static final String PRIVATE_KEY = "PRIVATE KEY";

    private static final String BEGIN = "-----BEGIN ";
    private static final String END = "-----END ";
    private static final String DASHES = "-----";

    private Pem() {}

    /** One decoded PEM block. */
    public static final class Block {
        private final String label;
        private final byte[] der;

        Block(String label, byte[] der) {
            this.label = label;
            this.der = der;
        }

        /**
         * The label between BEGIN and the dashes.
         *
         * @return e.g. {@code CERTIFICATE}
         */
        public String label() {
            return label;
        }

        /**
         * The decoded bytes.
         *
         * @return a copy of the block's Base64-decoded content
         */
        public byte[] der() {
            return der.clone();
        }

        @Override
        public String toString() {
            return "Pem.Block[" + label + ", " + der.length + " bytes]";
        }
    }

    /** {@code true} if {@code data} (after leading whitespace) contains a PEM BEGIN line. */
    static boolean looksLikePem(byte[] data) {
        String s = new String(data, 0, Math.min(data.length, 1 << 16), StandardCharsets.ISO_8859_1);
        return s.contains(BEGIN);
    }

    /**
     * Decodes every PEM block in {@code text}.
     *
     * @param text PEM text, possibly with other text around the blocks
     * @return the blocks in the order they appear, at least one
     * @throws CertificateFormatException for a BEGIN without END, mismatched labels, bad Base64, or
     *         text with no block at all
     */
    public static List<Block> readBlocks(String text) {
        Objects.requireNonNull(text, "text");
        List<Block> out = new ArrayList<>();
        int pos = 0;
        while (true) {
            int begin = text.indexOf(BEGIN, pos);
            if (begin < 0) {
                break;
            }
            int labelEnd = text.indexOf(DASHES, begin + BEGIN.length());
            int lineEnd = lineEnd(text, begin);
            if (labelEnd < 0 || labelEnd > lineEnd) {
                throw new CertificateFormatException("malformed PEM BEGIN line at offset " + begin);
            }
            String label = text.substring(begin + BEGIN.length(), labelEnd);
            String endLine = END + label + DASHES;
            // the END line starts after the BEGIN line's closing dashes, never inside them
            int end = text.indexOf(END, labelEnd + DASHES.length());
            if (end < 0) {
                throw new CertificateFormatException("PEM block '" + label + "' has no END line (truncated file?)");
            }
            if (!text.startsWith(endLine, end)) {
                int e2 = text.indexOf(DASHES, end + END.length());
                String other = e2 < 0 ? "?" : text.substring(end + END.length(), e2);
                throw new CertificateFormatException("PEM block BEGIN '" + label + "' ends with END '" + other + "'");
            }
            String body = text.substring(labelEnd + DASHES.length(), end);
            StringBuilder b64 = new StringBuilder(body.length());
            for (int i = 0; i < body.length(); i++) {
                char c = body.charAt(i);
                if (Character.isWhitespace(c)) {
                    continue;
                }
                if (c == ':') {
                    throw new CertificateFormatException("PEM block '" + label
                            + "' has RFC 1421 headers (e.g. Proc-Type); encrypted or legacy PEM is not supported");
                }
                b64.append(c);
            }
            byte[] der;
            try {
                der = Base64.getDecoder().decode(b64.toString());
            } catch (IllegalArgumentException e) {
                throw new CertificateFormatException(
                        "PEM block '" + label + "' is not valid Base64: " + e.getMessage(), e);
            }
            if (der.length == 0) {
                throw new CertificateFormatException("PEM block '" + label + "' is empty");
            }
            out.add(new Block(label, der));
            pos = end + endLine.length();
        }
        if (out.isEmpty()) {
            throw new CertificateFormatException("no PEM block found (expected a line '-----BEGIN CERTIFICATE-----')");
        }
        return out;
    }

    private static int lineEnd(String s, int from) {
        int n = s.indexOf('\n', from);
        return n < 0 ? s.length() : n;
    }

    /**
     * Reads exactly one {@code CERTIFICATE} block (other text is ignored, other blocks are an error).
     *
     * @param text PEM text
     * @return the certificate
     * @throws CertificateFormatException if the text holds no block, another block, more than one
     *         certificate, or a certificate that cannot be parsed
     */
    public static PqCertificate readCertificate(String text) {
        List<PqCertificate> all = readCertificates(text);
        if (all.size() != 1) {
            throw new CertificateFormatException("expected one certificate, found " + all.size());
        }
        return all.get(0);
    }

    /**
     * Reads every {@code CERTIFICATE} block, in order (a chain file); other labels are an error.
     *
     * @param text PEM text
     * @return the certificates in file order, at least one
     * @throws CertificateFormatException if the text holds no block, a block with another label, or a
     *         certificate that cannot be parsed
     */
    public static List<PqCertificate> readCertificates(String text) {
        List<PqCertificate> out = new ArrayList<>();
        for (Block b : readBlocks(text)) {
            if (!CERTIFICATE.equals(b.label())) {
                throw new CertificateFormatException(
                        "expected a PEM '" + CERTIFICATE + "' block, found '" + b.label() + "'");
            }
            out.add(PqCertificate.fromDer(b.der));
        }
        return out;
    }

    /**
     * Reads one certificate from a PEM or DER file.
     *
     * @param file the certificate file
     * @return the certificate
     * @throws IOException if the file cannot be read
     * @throws CertificateFormatException if the content is not one certificate
     */
    public static PqCertificate read(Path file) throws IOException {
        return PqCertificate.read(Files.readAllBytes(file));
    }

    /**
     * Reads one {@code PUBLIC KEY} block as a pqsign public key.
     *
     * @param text PEM text holding one SubjectPublicKeyInfo block
     * @return the public key
     * @throws CertificateFormatException if the text does not hold exactly one {@code PUBLIC KEY} block
     *         or the key is malformed
     * @throws UnsupportedAlgorithmException for keys pqsign does not handle
     */
    public static PqPublicKey readPublicKey(String text) {
        List<Block> blocks = readBlocks(text);
        if (blocks.size() != 1 || !PUBLIC_KEY.equals(blocks.get(0).label())) {
            throw new CertificateFormatException("expected one PEM '" + PUBLIC_KEY + "' block");
        }
        return PublicKeys.decode(blocks.get(0).der);
    }

    /**
     * PEM text of a certificate.
     *
     * @param cert the certificate
     * @return one {@code CERTIFICATE} block
     */
    public static String write(PqCertificate cert) {
        return encode(CERTIFICATE, cert.encoded());
    }

    /**
     * PEM text of a chain (leaf first is the usual order).
     *
     * @param chain the certificates, written in list order
     * @return one {@code CERTIFICATE} block per certificate
     */
    public static String write(List<PqCertificate> chain) {
        StringBuilder sb = new StringBuilder();
        for (PqCertificate c : chain) {
            sb.append(write(c));
        }
        return sb.toString();
    }

    /**
     * PEM text of a public key as a SubjectPublicKeyInfo.
     *
     * @param key the public key
     * @return one {@code PUBLIC KEY} block
     * @throws UnsupportedAlgorithmException for a private-use XMSS set
     */
    public static String write(PqPublicKey key) {
        return encode(PUBLIC_KEY, PublicKeys.encode(key));
    }

    /**
     * Writes a certificate as PEM to {@code file} (replacing it).
     *
     * @param file the file to write
     * @param cert the certificate
     * @throws IOException if the file cannot be written
     */
    public static void write(Path file, PqCertificate cert) throws IOException {
        Files.writeString(file, write(cert), StandardCharsets.US_ASCII);
    }

    /**
     * Any DER bytes as a PEM block with 64-character lines (RFC 7468 strict form).
     *
     * @param label the block's label: upper case, without dashes, e.g. {@code CERTIFICATE}
     * @param der the bytes to encode
     * @return the PEM block, ending with a newline
     * @throws IllegalArgumentException if {@code label} is empty, not upper case or contains a dash
     */
    public static String encode(String label, byte[] der) {
        if (label.isEmpty() || !label.equals(label.toUpperCase(Locale.ROOT)) || label.contains("-")) {
            throw new IllegalArgumentException("PEM label must be upper case without dashes, got '" + label + "'");
        }
        String b64 = Base64.getEncoder().encodeToString(der);
        StringBuilder sb = new StringBuilder(b64.length() + b64.length() / 64 + 64);
        sb.append(BEGIN).append(label).append(DASHES).append('\n');
        for (int i = 0; i < b64.length(); i += 64) {
            sb.append(b64, i, Math.min(b64.length(), i + 64)).append('\n');
        }
        sb.append(END).append(label).append(DASHES).append('\n');
        return sb.toString();
    }
}
