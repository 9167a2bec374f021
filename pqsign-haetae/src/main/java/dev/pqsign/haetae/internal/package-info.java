/**
 * Internals of pqsign-haetae that other pqsign modules need but callers must not use: the
 * known-answer-file writer ({@link dev.pqsign.haetae.internal.HaetaeKat}) and its CTR_DRBG
 * ({@link dev.pqsign.haetae.internal.CtrDrbg}), and the engines' live per-thread work areas for
 * measuring their size ({@link dev.pqsign.haetae.internal.HaetaeWorkingSet}). Not part of the API;
 * a future {@code module-info.java} will not export this package.
 */
package dev.pqsign.haetae.internal;
