/**
 * The report's side of pqsign-haetae's working-set SPI ({@code dev.pqsign.haetae.HaetaeWorkAreaProbe}).
 * Not exported.
 */
package dev.pqsign.bench.report.haetae;
