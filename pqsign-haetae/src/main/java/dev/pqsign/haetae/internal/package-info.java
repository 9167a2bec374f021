/**
 * Internals of pqsign-haetae that other pqsign modules need but callers must not use: the
 * known-answer-file writer ({@link dev.pqsign.haetae.internal.HaetaeKat}) and its CTR_DRBG. Not
 * part of the API; {@code module-info.java} does not export this package. (Measurement tools see the
 * engines' work areas through {@link dev.pqsign.haetae.HaetaeWorkAreaProbe} instead.)
 */
package dev.pqsign.haetae.internal;
