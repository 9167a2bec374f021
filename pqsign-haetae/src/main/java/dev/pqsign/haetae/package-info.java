/**
 * HAETAE-2/3/5 signatures (KpqC final specification v1.2.0; the v1.1.2 sampler as an option),
 * byte-exact with the reference implementation and interoperable with BouncyCastle 1.87.
 *
 * <p>Entry points: {@link dev.pqsign.haetae.HaetaeParameterSet} (sets, sizes, OIDs),
 * {@link dev.pqsign.haetae.HaetaeKeyPairGenerator} (keys from a {@code SecureRandom} or a 32-byte seed),
 * {@link dev.pqsign.haetae.HaetaePublicKey} / {@link dev.pqsign.haetae.HaetaePrivateKey} (reference
 * encodings), {@link dev.pqsign.haetae.HaetaeSigner} / {@link dev.pqsign.haetae.HaetaeVerifier}
 * (context strings up to 255 bytes), {@link dev.pqsign.haetae.HaetaeSampler} and
 * {@link dev.pqsign.haetae.HaetaeEngine} (FAST: whole vectors, allocation-free steady state; COMPACT:
 * streaming, a working set of a few KB). The KAT-file writer and the engines' per-thread work areas are
 * in {@code dev.pqsign.haetae.internal}, which is not API. Everything else in
 * the package is internal and named after the specification: {@code Ntt}, {@code Reduce}, {@code Poly},
 * {@code Packing}, {@code Rans}, {@code Fft}, {@code FixedPoint}, {@code HyperballSampler},
 * {@code Keccak}.
 */
package dev.pqsign.haetae;
