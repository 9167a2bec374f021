package dev.pqsign.cli;

import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Verifier;
import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.haetae.HaetaePublicKey;
import dev.pqsign.haetae.HaetaeVerifier;
import dev.pqsign.keys.AmbiguousPublicKeyException;
import dev.pqsign.keys.HssScheme;
import dev.pqsign.keys.KeyDirectoryInUseException;
import dev.pqsign.keys.KeyDirectoryOwner;
import dev.pqsign.keys.OpenedPrivateKey;
import dev.pqsign.keys.PrivateKeyFormat;
import dev.pqsign.keys.PrivateKeySummary;
import dev.pqsign.keys.PrivateKeys;
import dev.pqsign.keys.PublicKeyFile;
import dev.pqsign.keys.SensorKeyDirectory;
import dev.pqsign.keys.SignatureScheme;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssPublicKey;
import dev.pqsign.lms.HssSignatures;
import dev.pqsign.lms.HssVerifier;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssVerifier;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Reads key, signature and message files, turning every problem into a one-line error naming the file. */
final class KeyFiles {
    /** No pqsign input is anywhere near this large except messages, which are read separately. */
    static final long MAX_KEY_FILE = 1 << 20;

    private KeyFiles() {}

    /** Largest message pqsign reads (the largest Java array). */
    static final long MAX_MESSAGE = Integer.MAX_VALUE - 8;

    /** Reads a whole message file (up to 2 GiB), with a clear error if it cannot. */
    static byte[] read(Path file, String what) {
        return readBounded(file, what, MAX_MESSAGE);
    }

    /**
     * Takes ownership of the key directory of {@code key} (a {@code key.pub} beside it) for the
     * command's run, waiting up to the lock timeout for another process to give it up; null for a
     * key file outside a key directory. Refused with one line naming the owner's pid (exit 1).
     */
    static KeyDirectoryOwner ownKeyDirectory(Path key, int lockTimeoutSeconds) {
        Path dir = key.toAbsolutePath().getParent();
        if (dir == null || !Files.exists(dir.resolve(SensorKeyDirectory.PUBLIC_KEY), LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try {
            return KeyDirectoryOwner.acquire(dir, Duration.ofSeconds(lockTimeoutSeconds));
        } catch (KeyDirectoryInUseException e) {
            throw new CliException(CliException.FAILED, e.getMessage(), e);
        } catch (IOException e) {
            throw CliException.usage(PqsignCli.message(e));
        }
    }

    /** Reads a small file (keys, signatures, certificates), refusing anything over 1 MiB. */
    static byte[] readSmall(Path file, String what) {
        return readBounded(file, what, MAX_KEY_FILE);
    }

    /**
     * Checks that an input is an existing regular file (a symbolic link to one is fine). Anything else
     * is refused before it is opened: opening a FIFO without a writer blocks forever, and a device
     * such as /dev/urandom never ends.
     */
    static void requireRegularFile(Path file, String what) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw CliException.usage(file + ": " + what + " does not exist");
        } catch (IOException e) {
            throw CliException.usage(file + ": cannot read " + what + ": " + OutputFiles.reason(e));
        }
        if (a.isDirectory()) {
            throw CliException.usage(file + ": " + what + " is a directory, not a file");
        }
        if (!a.isRegularFile()) {
            throw CliException.usage(file + ": " + what + " is not a regular file (device, FIFO or socket)");
        }
    }

    /**
     * Reads a regular file of at most {@code max} bytes. The limit is enforced while reading (a file
     * that grows past it is refused without reading the rest), not just by its size up front.
     */
    static byte[] readBounded(Path file, String what, long max) {
        requireRegularFile(file, what);
        try (InputStream in = Files.newInputStream(file)) {
            long size = Files.size(file);
            if (size > max) {
                throw tooLarge(file, what, size + " bytes", max);
            }
            // readNBytes grows its buffer as data arrives: a lying size cannot make us allocate max.
            byte[] b = in.readNBytes((int) Math.min(max + 1, MAX_MESSAGE));
            if (b.length > max) {
                throw tooLarge(file, what, "more than " + max + " bytes", max);
            }
            return b;
        } catch (NoSuchFileException e) {
            throw CliException.usage(file + ": " + what + " does not exist");
        } catch (OutOfMemoryError e) {
            throw CliException.usage(file + ": " + what + " is too large to read");
        } catch (IOException e) {
            throw CliException.usage(file + ": cannot read " + what + ": " + OutputFiles.reason(e));
        }
    }

    private static CliException tooLarge(Path file, String what, String size, long max) {
        return CliException.usage(
                file + ": " + what + " is " + size + "; no " + what + " is larger than " + max + " bytes");
    }

    /**
     * The format of a private key file, as pqsign-keys tells it by its magic ({@link
     * PrivateKeys#formatOf}); empty for any other file. A file that is missing, no regular file or
     * over 1 MiB is refused as {@link #readSmall} refuses it.
     */
    static Optional<PrivateKeyFormat> privateKeyFormat(Path file, String what) {
        requireSmallFile(file, what);
        try {
            return PrivateKeys.formatOf(file);
        } catch (IOException e) {
            throw unreadable(file, what, e);
        }
    }

    /**
     * What a private key file holds ({@link PrivateKeys#summary}), its problems refused with one
     * line naming it; empty for a file that is no pqsign private key.
     */
    static Optional<PrivateKeySummary> privateKeySummary(Path file, String what) {
        requireSmallFile(file, what);
        try {
            return PrivateKeys.summary(file);
        } catch (KeyFormatException e) {
            throw CliException.usage(file + ": " + e.getMessage());
        } catch (IOException e) {
            throw unreadable(file, what, e);
        }
    }

    /** Opens a HAETAE private key file ({@link PrivateKeys#open}), naming the file in any error. */
    static OpenedPrivateKey openHaetaeKey(Path file, String what) {
        try {
            OpenedPrivateKey k = PrivateKeys.open(file, PrivateKeys.Options.defaults());
            if (k.haetaeKey().isEmpty()) {
                k.close();
                throw CliException.usage(file + ": changed while it was opened (no longer a HAETAE key)");
            }
            return k;
        } catch (KeyFormatException e) {
            throw CliException.usage(file + ": " + e.getMessage());
        } catch (IOException e) {
            throw unreadable(file, what, e);
        }
    }

    /** A regular file of at most 1 MiB, checked as {@link #readSmall} checks it, without reading it. */
    private static void requireSmallFile(Path file, String what) {
        requireRegularFile(file, what);
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw unreadable(file, what, e);
        }
        if (size > MAX_KEY_FILE) {
            throw tooLarge(file, what, size + " bytes", MAX_KEY_FILE);
        }
    }

    private static CliException unreadable(Path file, String what, IOException e) {
        if (e instanceof NoSuchFileException) {
            return CliException.usage(file + ": " + what + " does not exist");
        }
        return CliException.usage(file + ": cannot read " + what + ": " + OutputFiles.reason(e));
    }

    /** Any supported parameter set by name. */
    static SignatureScheme scheme(String name) {
        return SignatureScheme.byName(name)
                .orElseThrow(() -> CliException.usage("unknown parameter set '" + name + "' (see 'pqsign params')"));
    }

    /**
     * A verifier for the public key in {@code file}: an RFC 8391 XMSS / XMSS^MT key (type code ||
     * root || PUB_SEED), raw root || PUB_SEED when {@code paramsName} names the set, an RFC 8554 HSS
     * key, or a HAETAE key;
     * or a PEM certificate, whose key is used only once its chain to {@code trust} has been verified
     * (without {@code trust} a certificate is refused). The signature's length resolves the XMSS /
     * XMSS^MT ambiguity of shared type codes; an HSS signature names the trees below the top one.
     */
    static Verifier verifier(Path file, String paramsName, byte[] signature, byte[] context, Path trust) {
        int signatureLength = signature.length;
        byte[] pub = readSmall(file, "public key");
        if (PublicKeyFile.looksLikePem(pub)) {
            if (paramsName != null) {
                throw CliException.usage(file + ": --params does not apply to a certificate");
            }
            return CertificateSupport.trustedVerifier(file, pub, trust, context);
        }
        if (trust != null) {
            throw CliException.usage(file + ": --trust applies only when --pub is a certificate");
        }
        PqPublicKey key;
        try {
            key = paramsName != null
                    ? PublicKeyFile.decode(scheme(paramsName), pub)
                    : PublicKeyFile.detectForSignature(pub, signatureLength);
        } catch (KeyFormatException e) {
            throw CliException.usage(file + ": public key: " + e.getMessage());
        }
        if (key.isHss()) {
            return hssVerifier(key.hss().orElseThrow(), paramsName, signature);
        }
        return key.xmss()
                .<Verifier>map(XmssVerifier::new)
                .orElseGet(() -> haetaeVerifier(key.haetae().orElseThrow(), context));
    }

    /**
     * An HSS verifier that accepts the hierarchy {@code paramsName} names, or else the one the
     * signature's own type codes name under this key (an HSS public key names only its top tree);
     * a signature that names none is checked by RFC 8554's rule, which rejects it.
     */
    private static Verifier hssVerifier(HssPublicKey key, String paramsName, byte[] signature) {
        if (paramsName != null) {
            HssParameterSet p = ((HssScheme) scheme(paramsName)).parameterSet();
            return new HssVerifier(key, p);
        }
        return HssSignatures.parameterSetOf(key, signature)
                .map(p -> new HssVerifier(key, p))
                .orElseGet(() -> HssVerifier.anyLowerLevels(key));
    }

    /**
     * The public key in a key file (operator pinning, certificate subjects): RFC 8391 XMSS / XMSS^MT ({@code paramsName}
     * needed only when the type code is shared by an XMSS and an XMSS^MT set, or for a raw
     * {@code root || PUB_SEED}) or a HAETAE public key. A certificate is refused: pinning its key
     * without verifying it would trust it silently.
     */
    static PqPublicKey publicKey(Path file, String paramsName) {
        byte[] pub = readSmall(file, "public key");
        if (PublicKeyFile.looksLikePem(pub)) {
            // Pinning a certificate's key unverified would trust whatever the file says (a tampered
            // or expired certificate included); only a chain check may vouch for it.
            throw CliException.usage(file + ": is a certificate, not a public key file; its key is used only"
                    + " after its chain is verified (--cert CERT --trust ROOT where a command offers it);"
                    + " give the bare key.pub here");
        }
        try {
            return paramsName != null ? PublicKeyFile.decode(scheme(paramsName), pub) : PublicKeyFile.detect(pub);
        } catch (AmbiguousPublicKeyException e) {
            throw CliException.usage(
                    "public key " + file + " fits " + e.candidateNames() + " (same type code); give --params NAME");
        } catch (KeyFormatException e) {
            throw CliException.usage(file + ": public key: " + e.getMessage());
        }
    }

    static Verifier haetaeVerifier(HaetaePublicKey key, byte[] context) {
        return new HaetaeVerifier(key, context, HaetaeEngine.FAST);
    }

    /** Parses a context option: {@code hex:0a0b..} or plain UTF-8 text. */
    static byte[] context(String spec) {
        if (spec == null) {
            return new byte[0];
        }
        if (spec.toLowerCase(Locale.ROOT).startsWith("hex:")) {
            try {
                return Hex.decode(spec.substring(4));
            } catch (IllegalArgumentException e) {
                throw CliException.usage("--context: " + e.getMessage());
            }
        }
        return spec.getBytes(StandardCharsets.UTF_8);
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
