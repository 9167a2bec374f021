package dev.pqsign.cli;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Verifier;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaePublicKey;
import dev.pqsign.haetae.HaetaeVerifier;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPublicKey;
import dev.pqsign.xmss.XmssVerifier;
import dev.pqsign.x509.CertificateFormatException;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.x509.UnsupportedAlgorithmException;
import java.util.stream.Collectors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Reads key, signature and message files, turning every problem into a one-line error naming the file. */
final class KeyFiles {
    /** No pqsign input is anywhere near this large except messages, which are read separately. */
    static final long MAX_KEY_FILE = 1 << 20;

    private KeyFiles() {
    }

    /** Reads a whole input file (messages: up to 2 GiB), with a clear error if it cannot. */
    static byte[] read(Path file, String what) {
        try {
            if (Files.isDirectory(file)) {
                throw CliException.usage(what + " " + file + " is a directory, not a file");
            }
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw CliException.usage(what + " " + file + " does not exist");
        } catch (OutOfMemoryError e) {
            throw CliException.usage(what + " " + file + " is too large to read");
        } catch (IOException e) {
            throw CliException.usage("cannot read " + what + " " + file + ": " + e.getMessage());
        }
    }

    /** Reads a small file (keys, signatures), refusing anything over 1 MiB before allocating. */
    static byte[] readSmall(Path file, String what) {
        try {
            if (Files.isRegularFile(file) && Files.size(file) > MAX_KEY_FILE) {
                throw CliException.usage(what + " " + file + " is " + Files.size(file) + " bytes; no " + what
                        + " is larger than " + MAX_KEY_FILE);
            }
        } catch (IOException e) {
            throw CliException.usage("cannot read " + what + " " + file + ": " + e.getMessage());
        }
        return read(file, what);
    }

    /** Any supported parameter set by name. */
    static Object parameterSet(String name) {
        var x = XmssParameterSet.byName(name);
        if (x.isPresent()) {
            return x.get();
        }
        try {
            return HaetaeParameterSet.fromName(name);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("unknown parameter set '" + name + "' (see 'pqsign params')");
        }
    }

    /**
     * A verifier for the public key in {@code file}: an RFC 8391 XMSS / XMSS^MT key (type code ||
     * root || PUB_SEED), raw root || PUB_SEED when {@code paramsName} names the set, or a HAETAE key.
     * {@code signatureLength} resolves the XMSS / XMSS^MT ambiguity of shared type codes.
     */
    static Verifier verifier(Path file, String paramsName, int signatureLength, byte[] context) {
        byte[] pub = readSmall(file, "public key");
        try {
            if (looksLikePem(pub)) {
                return CertificateSupport.verifier(file, pub);
            }
            if (paramsName != null) {
                Object p = parameterSet(paramsName);
                if (p instanceof XmssParameterSet) {
                    XmssParameterSet xp = (XmssParameterSet) p;
                    XmssPublicKey k = pub.length == 2 * xp.n() ? XmssPublicKey.decodeRaw(xp, pub)
                            : XmssPublicKey.decode(xp, pub);
                    return new XmssVerifier(k);
                }
                return haetaeVerifier(HaetaePublicKey.fromEncoded((HaetaeParameterSet) p, pub), context);
            }
            List<XmssParameterSet> candidates = XmssPublicKey.candidates(pub);
            if (!candidates.isEmpty()) {
                XmssParameterSet chosen = null;
                for (XmssParameterSet c : candidates) {
                    if (c.signatureBytes() == signatureLength) {
                        chosen = c;
                    }
                }
                if (chosen == null) {
                    chosen = candidates.get(0);
                }
                return new XmssVerifier(XmssPublicKey.decode(chosen, pub));
            }
            for (HaetaeParameterSet h : HaetaeParameterSet.values()) {
                if (h.publicKeyBytes() == pub.length) {
                    return haetaeVerifier(HaetaePublicKey.fromEncoded(h, pub), context);
                }
            }
            throw new KeyFormatException("not a recognised public key (" + pub.length
                    + " bytes, no known XMSS type code or HAETAE key length); give --params for a raw key");
        } catch (KeyFormatException e) {
            throw CliException.usage("public key " + file + ": " + e.getMessage());
        }
    }

    /**
     * The public key in a key file (operator pinning, certificate subjects): RFC 8391 XMSS / XMSS^MT ({@code paramsName}
     * needed only when the type code is shared by an XMSS and an XMSS^MT set, or for a raw
     * {@code root || PUB_SEED}), a HAETAE public key, or a PEM certificate (its key is pinned as is).
     */
    static PqPublicKey publicKey(Path file, String paramsName) {
        byte[] pub = readSmall(file, "public key");
        try {
            if (looksLikePem(pub)) {
                if (paramsName != null) {
                    throw CliException.usage("--params does not apply to a certificate (" + file + ")");
                }
                return CertificateSupport.read(file, pub).publicKey();
            }
            if (paramsName != null) {
                Object p = parameterSet(paramsName);
                if (p instanceof XmssParameterSet) {
                    XmssParameterSet xp = (XmssParameterSet) p;
                    return PqPublicKey.of(pub.length == 2 * xp.n() ? XmssPublicKey.decodeRaw(xp, pub)
                            : XmssPublicKey.decode(xp, pub));
                }
                return PqPublicKey.of(HaetaePublicKey.fromEncoded((HaetaeParameterSet) p, pub));
            }
            List<XmssParameterSet> candidates = XmssPublicKey.candidates(pub);
            if (candidates.size() == 1) {
                return PqPublicKey.of(XmssPublicKey.decode(candidates.get(0), pub));
            }
            if (candidates.size() > 1) {
                throw CliException.usage("public key " + file + " fits "
                        + candidates.stream().map(XmssParameterSet::setName).collect(Collectors.joining(" and "))
                        + " (same type code); give --params NAME");
            }
            for (HaetaeParameterSet h : HaetaeParameterSet.values()) {
                if (h.publicKeyBytes() == pub.length) {
                    return PqPublicKey.of(HaetaePublicKey.fromEncoded(h, pub));
                }
            }
            throw new KeyFormatException("not a recognised public key (" + pub.length
                    + " bytes, no known XMSS type code or HAETAE key length); give --params for a raw key");
        } catch (KeyFormatException | CertificateFormatException | UnsupportedAlgorithmException e) {
            throw CliException.usage("public key " + file + ": " + e.getMessage());
        }
    }

    static Verifier haetaeVerifier(HaetaePublicKey key, byte[] context) {
        return new HaetaeVerifier(key, context, dev.pqsign.haetae.HaetaeEngine.FAST);
    }

    static boolean looksLikePem(byte[] b) {
        String head = new String(b, 0, Math.min(b.length, 64), java.nio.charset.StandardCharsets.US_ASCII);
        return head.stripLeading().startsWith("-----BEGIN");
    }

    /** Parses a context option: {@code hex:0a0b..} or plain UTF-8 text. */
    static byte[] context(String spec) {
        if (spec == null) {
            return new byte[0];
        }
        if (spec.toLowerCase(Locale.ROOT).startsWith("hex:")) {
            try {
                return dev.pqsign.core.Hex.decode(spec.substring(4));
            } catch (IllegalArgumentException e) {
                throw CliException.usage("--context: " + e.getMessage());
            }
        }
        return spec.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Every XMSS / XMSS^MT set whose signatures have this length. */
    static List<XmssParameterSet> xmssBySignatureLength(int len) {
        List<XmssParameterSet> out = new ArrayList<>();
        for (XmssParameterSet p : XmssParameterSet.values()) {
            if (p.signatureBytes() == len) {
                out.add(p);
            }
        }
        return out;
    }
}
