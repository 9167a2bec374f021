package dev.pqsign.cli;

import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaePrivateKey;
import dev.pqsign.keys.HaetaeKeyFile;
import dev.pqsign.keys.PrivateKeyFormat;
import dev.pqsign.keys.PublicKeyFile;
import dev.pqsign.keys.PublicKeys;
import dev.pqsign.keys.SensorKeyDirectory;
import dev.pqsign.lms.HssKeyState;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssPublicKey;
import dev.pqsign.lms.HssSignatures;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPublicKey;
import dev.pqsign.xmss.XmssSignatures;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code pqsign inspect}: what a file is, without printing secrets. */
@Command(name = "inspect", description = "Describe a key, state, signature or certificate file (never prints secrets).")
final class InspectCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", description = "The file, or a sensor key directory (DIR with DIR/key.pub).")
    Path file;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        if (Files.isDirectory(file) && Files.isRegularFile(file.resolve(SensorKeyDirectory.PUBLIC_KEY))) {
            describeKeyDirectory(o);
            o.flush();
            return 0;
        }
        byte[] b = KeyFiles.readSmall(file, "file");
        PrivateKeyFormat format = PrivateKeyFormat.of(b).orElse(null);
        try {
            if (format == PrivateKeyFormat.XMSS_KEY_STATE) {
                XmssKeyState s = XmssKeyState.decode(b);
                XmssParameterSet p = s.key().parameterSet();
                o.printf("%s: pqsign XMSS key state (format 1, %d bytes)%n", file, b.length);
                o.printf("  parameter set:  %s (%s, type code 0x%08x)%n", p.setName(), p.family(), p.typeCode());
                o.printf("  derivation:     %s%n", s.key().derivation().cliName());
                o.printf(
                        "  index range:    next %d, end %d (of 2^%d = %d)%n",
                        s.nextIndex(), s.endIndex(), p.height(), p.maxSignatures());
                o.printf("  remaining:      %d signatures%n", s.remaining());
                // Two digests of one key, named apart: the key id is what records, JSONL, handovers and
                // current.sensor.keyid carry; the state check is only the signer's same-file test.
                o.printf(
                        "  key id:         %s (SHA-256 of the public key; records, JSONL, handovers)%n",
                        Hex.encode(PublicKeys.keyId(PqPublicKey.of(s.key().publicKey()))));
                o.printf(
                        "  state check:    %s (SHA-256 of family, 0x00, public key; docs/formats/xmss-state.md)%n",
                        Hex.encode(s.key().publicKey().keyId()));
                o.printf(
                        "  public key:     %s%n", Hex.encode(s.key().publicKey().encoded()));
                s.key().destroy();
            } else if (format == PrivateKeyFormat.HSS_KEY_STATE) {
                describeHssState(HssKeyState.decode(b), b.length, o);
            } else if (format == PrivateKeyFormat.HAETAE_KEY_FILE) {
                HaetaePrivateKey k = HaetaeKeyFile.decode(b);
                o.printf("%s: pqsign HAETAE private key (format 1, %d bytes)%n", file, b.length);
                o.printf(
                        "  parameter set:  %s (stateless, OID %s)%n",
                        k.parameterSet().setName(), k.parameterSet().oid());
                k.destroy();
            } else if (PublicKeyFile.looksLikePem(b)) {
                o.println(CertificateSupport.describe(file, b));
            } else {
                describeRaw(b, o);
            }
        } catch (KeyFormatException e) {
            throw CliException.usage(file + ": " + e.getMessage());
        }
        o.flush();
        return 0;
    }

    /** A sensor key directory: its current generation and what is left of it (no lock taken, nothing changed). */
    private void describeKeyDirectory(PrintWriter o) {
        SensorKeyDirectory.Inspection i;
        try {
            i = SensorKeyDirectory.inspect(file);
        } catch (KeyFormatException e) {
            throw CliException.usage(file + ": " + e.getMessage());
        } catch (IOException e) {
            throw CliException.usage(file + ": " + e.getMessage());
        }
        o.printf("%s: pqsign sensor key directory (docs/key-directory.md)%n", file);
        o.printf("  parameter set:  %s%n", i.parameterSet());
        o.printf("  chain id:       %s (key id of generation 0, DIR/key.pub)%n", Hex.encode(i.chainId()));
        o.printf("  generation:     %d (%d key handovers)%n", i.generation(), i.handovers());
        o.printf("  compacted:      %d retired generations in %s%n", i.compacted(), SensorKeyDirectory.HANDOVER_LOG);
        o.printf("  current key id: %s%n", Hex.encode(i.currentKeyId()));
        o.printf("  remaining:      %d signatures%n", i.remaining());
        o.printf("  next key:       %s%n", i.nextKeyReady() ? "prepared" : "not prepared yet");
    }

    private void describeHssState(HssKeyState s, int length, PrintWriter o) {
        HssParameterSet p = s.key().parameterSet();
        HssPublicKey pub = s.key().publicKey();
        o.printf("%s: pqsign LMS/HSS key state (format 1, %d bytes)%n", file, length);
        o.printf("  parameter set:  %s (%d level%s)%n", p.setName(), p.levels(), p.levels() == 1 ? "" : "s");
        o.printf(
                "  index range:    next %d, end %d (of 2^%d = %d)%n",
                s.nextIndex(), s.endIndex(), p.totalHeight(), p.maxSignatures());
        o.printf("  remaining:      %d signatures%n", s.remaining());
        o.printf(
                "  key id:         %s (SHA-256 of the HSS public key)%n",
                Hex.encode(PublicKeys.keyId(PqPublicKey.of(pub))));
        o.printf("  public key:     %s%n", Hex.encode(pub.encoded()));
        s.key().destroy();
    }

    /** An RFC 8554 HSS public key, or an HSS signature whose type codes name a hierarchy; false if neither. */
    private boolean describeHss(byte[] b, PrintWriter o) {
        try {
            HssPublicKey k = HssPublicKey.decode(b);
            o.printf("%s: HSS public key (RFC 8554 encoding, %d bytes)%n", file, b.length);
            o.printf("  levels:         %d%n", k.levels());
            o.printf("  top tree:       %s%n", k.top().parameterSet().setName());
            o.printf(
                    "  key id:         %s (SHA-256 of the HSS public key)%n",
                    Hex.encode(PublicKeys.keyId(PqPublicKey.of(k))));
            return true;
        } catch (KeyFormatException e) {
            // not a public key: perhaps a signature
        }
        Optional<HssParameterSet> sig = HssSignatures.parameterSetOf(b);
        if (sig.isEmpty() || !sig.get().isSignable()) {
            return false;
        }
        try {
            long index = HssSignatures.index(sig.get(), b);
            o.printf("%s: HSS signature (%d bytes)%n", file, b.length);
            o.printf("  parameter set:  %s%n", sig.get().setName());
            o.printf("  index:          %d%n", index);
            return true;
        } catch (KeyFormatException e) {
            return false;
        }
    }

    private void describeRaw(byte[] b, PrintWriter o) {
        if (describeHss(b, o)) {
            return;
        }
        List<XmssParameterSet> pk = XmssPublicKey.candidates(b);
        if (!pk.isEmpty()) {
            o.printf("%s: XMSS/XMSS^MT public key (RFC 8391 encoding, %d bytes)%n", file, b.length);
            for (XmssParameterSet p : pk) {
                o.printf("  could be:       %s (%s, type code 0x%08x)%n", p.setName(), p.family(), p.typeCode());
            }
            return;
        }
        for (HaetaeParameterSet h : HaetaeParameterSet.values()) {
            if (h.publicKeyBytes() == b.length) {
                o.printf("%s: %s public key (%d bytes)%n", file, h.setName(), b.length);
                return;
            }
        }
        List<XmssParameterSet> sig = KeyFiles.xmssBySignatureLength(b.length);
        boolean any = false;
        for (XmssParameterSet p : sig) {
            long idx = XmssSignatures.index(p, b);
            if (idx >= 0) {
                if (!any) {
                    o.printf("%s: XMSS/XMSS^MT signature (%d bytes)%n", file, b.length);
                    any = true;
                }
                o.printf("  if %s: index %d%n", p.setName(), idx);
            }
        }
        for (HaetaeParameterSet h : HaetaeParameterSet.values()) {
            if (h.signatureBytes() == b.length) {
                o.printf("%s%s signature (%d bytes)%n", any ? "  or " : file + ": ", h.setName(), b.length);
                any = true;
            }
        }
        if (!any) {
            throw CliException.usage(
                    file + ": not a recognised pqsign key, state, signature or certificate (" + b.length + " bytes)");
        }
    }
}
