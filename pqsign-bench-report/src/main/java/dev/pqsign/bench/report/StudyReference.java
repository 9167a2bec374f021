package dev.pqsign.bench.report;

import java.util.Map;

/**
 * Published figures the report prints beside its own, always labelled as other hardware. These are
 * data cited from the studies, not measurements of this code.
 */
final class StudyReference {
    private StudyReference() {}

    static final String INDUSTRIAL = "industrial XMSS^MT / OPC UA study, Raspberry Pi 3";
    static final String LOW_MEMORY = "low-memory HAETAE study, ARM Cortex-M4";

    /** XMSS^MT signature sizes as the study's table gives them (it assumed a 4-byte index for every set). */
    static final Map<String, Integer> SIGNATURE_BYTES =
            Map.of("XMSSMT-SHA2_10/2_256", 4644, "XMSSMT-SHA2_20/4_256", 9252, "XMSSMT-SHA2_30/6_256", 13860);

    /** Signing time of set 1 on the Raspberry Pi 3 (ms). */
    static final Map<String, Double> SIGN_MS = Map.of("XMSSMT-SHA2_10/2_256", 514.0);

    /** End-to-end latency of set 1 over Ethernet on the Raspberry Pi 3 (ms, about). */
    static final Map<String, Double> END_TO_END_ETHERNET_MS = Map.of("XMSSMT-SHA2_10/2_256", 1036.65);

    /** Extra transfer time over the study's 5G link compared with Ethernet (ms), growing with signature size. */
    static final String FIVE_G_EXTRA_TRANSFER = "84–139 ms";

    /** Stack use of HAETAE on a Cortex-M4 (KB, ranges over HAETAE-2/3/5). */
    static final String[][] CORTEX_M4_STACK_KB = {{"keygen", "4.7–5.8"}, {"sign", "5.8–6.1"}, {"verify", "4.7–4.8"}};
}
