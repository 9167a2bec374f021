package dev.pqsign.state;

/**
 * A key of some stateful scheme that the shared signing tests ({@link SignerCrashRun},
 * {@link MultiProcessSigning}) sign with in child JVMs and check afterwards: each scheme module's
 * tests implement it with their parameter set and key.
 */
public interface SignedKey {

    /** The scheme's name in printed summaries ({@code XMSS}, {@code HSS}). */
    String scheme();

    /** The key's parameter set's name, for printed summaries. */
    String setName();

    /** The opener the child JVMs (and the parent's own signers) use. */
    Class<? extends SignerOpener> opener();

    /** The next index of a state file's content. */
    long nextIndex(byte[] state);

    /** The index a signature carries. */
    long signatureIndex(byte[] signature);

    /** Whether {@code signature} verifies on {@code message} under this key's public key. */
    boolean verifies(byte[] message, byte[] signature);

    /** A fresh instance of {@link #opener()}. */
    default SignerOpener newOpener() {
        return SigningChild.opener(opener().getName());
    }
}
