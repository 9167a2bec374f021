package dev.pqsign.xmss;

import dev.pqsign.core.ParameterSet;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Every XMSS and XMSS^MT parameter set of RFC 8391 and NIST SP 800-208 (w = 16), plus the two sets
 * of the industrial study that have no registered type code, XMSSMT-SHA2_10/2_256 and
 * XMSSMT-SHA2_30/6_256. Those carry codes from the range RFC 8391 reserves for private use
 * (0xDDDDDDDD-0xFFFFFFFF): {@code 0xDDDE} followed by one byte h and one byte d. They are not
 * interoperable with other implementations; see docs/formats/xmss-type-codes.md.
 *
 * <p>Look up by name ({@link #byName}) or by family and type code ({@link #byTypeCode}); every size
 * is derived from (hash, h, d) so no table can disagree with the code.
 */
public enum XmssParameterSet implements ParameterSet {
    /** XMSS, SHA-256, n = 32, h = 10; RFC 8391 type code 0x00000001. */
    XMSS_SHA2_10_256("XMSS-SHA2_10_256", Family.XMSS, 0x00000001, false, XmssHash.SHA2_256, 10, 1),
    /** XMSS, SHA-256, n = 32, h = 16; RFC 8391 type code 0x00000002. */
    XMSS_SHA2_16_256("XMSS-SHA2_16_256", Family.XMSS, 0x00000002, false, XmssHash.SHA2_256, 16, 1),
    /** XMSS, SHA-256, n = 32, h = 20; RFC 8391 type code 0x00000003. */
    XMSS_SHA2_20_256("XMSS-SHA2_20_256", Family.XMSS, 0x00000003, false, XmssHash.SHA2_256, 20, 1),
    /** XMSS, SHA-512, n = 64, h = 10; RFC 8391 type code 0x00000004. */
    XMSS_SHA2_10_512("XMSS-SHA2_10_512", Family.XMSS, 0x00000004, false, XmssHash.SHA2_512, 10, 1),
    /** XMSS, SHA-512, n = 64, h = 16; RFC 8391 type code 0x00000005. */
    XMSS_SHA2_16_512("XMSS-SHA2_16_512", Family.XMSS, 0x00000005, false, XmssHash.SHA2_512, 16, 1),
    /** XMSS, SHA-512, n = 64, h = 20; RFC 8391 type code 0x00000006. */
    XMSS_SHA2_20_512("XMSS-SHA2_20_512", Family.XMSS, 0x00000006, false, XmssHash.SHA2_512, 20, 1),
    /** XMSS, SHAKE128, n = 32, h = 10; RFC 8391 type code 0x00000007. */
    XMSS_SHAKE_10_256("XMSS-SHAKE_10_256", Family.XMSS, 0x00000007, false, XmssHash.SHAKE128_256, 10, 1),
    /** XMSS, SHAKE128, n = 32, h = 16; RFC 8391 type code 0x00000008. */
    XMSS_SHAKE_16_256("XMSS-SHAKE_16_256", Family.XMSS, 0x00000008, false, XmssHash.SHAKE128_256, 16, 1),
    /** XMSS, SHAKE128, n = 32, h = 20; RFC 8391 type code 0x00000009. */
    XMSS_SHAKE_20_256("XMSS-SHAKE_20_256", Family.XMSS, 0x00000009, false, XmssHash.SHAKE128_256, 20, 1),
    /** XMSS, SHAKE256, n = 64, h = 10; RFC 8391 type code 0x0000000A. */
    XMSS_SHAKE_10_512("XMSS-SHAKE_10_512", Family.XMSS, 0x0000000A, false, XmssHash.SHAKE256_512, 10, 1),
    /** XMSS, SHAKE256, n = 64, h = 16; RFC 8391 type code 0x0000000B. */
    XMSS_SHAKE_16_512("XMSS-SHAKE_16_512", Family.XMSS, 0x0000000B, false, XmssHash.SHAKE256_512, 16, 1),
    /** XMSS, SHAKE256, n = 64, h = 20; RFC 8391 type code 0x0000000C. */
    XMSS_SHAKE_20_512("XMSS-SHAKE_20_512", Family.XMSS, 0x0000000C, false, XmssHash.SHAKE256_512, 20, 1),
    /** XMSS, SHA-256/192, n = 24, h = 10; SP 800-208 type code 0x0000000D. */
    XMSS_SHA2_10_192("XMSS-SHA2_10_192", Family.XMSS, 0x0000000D, false, XmssHash.SHA2_192, 10, 1),
    /** XMSS, SHA-256/192, n = 24, h = 16; SP 800-208 type code 0x0000000E. */
    XMSS_SHA2_16_192("XMSS-SHA2_16_192", Family.XMSS, 0x0000000E, false, XmssHash.SHA2_192, 16, 1),
    /** XMSS, SHA-256/192, n = 24, h = 20; SP 800-208 type code 0x0000000F. */
    XMSS_SHA2_20_192("XMSS-SHA2_20_192", Family.XMSS, 0x0000000F, false, XmssHash.SHA2_192, 20, 1),
    /** XMSS, SHAKE256, n = 32, h = 10; SP 800-208 type code 0x00000010. */
    XMSS_SHAKE256_10_256("XMSS-SHAKE256_10_256", Family.XMSS, 0x00000010, false, XmssHash.SHAKE256_256, 10, 1),
    /** XMSS, SHAKE256, n = 32, h = 16; SP 800-208 type code 0x00000011. */
    XMSS_SHAKE256_16_256("XMSS-SHAKE256_16_256", Family.XMSS, 0x00000011, false, XmssHash.SHAKE256_256, 16, 1),
    /** XMSS, SHAKE256, n = 32, h = 20; SP 800-208 type code 0x00000012. */
    XMSS_SHAKE256_20_256("XMSS-SHAKE256_20_256", Family.XMSS, 0x00000012, false, XmssHash.SHAKE256_256, 20, 1),
    /** XMSS, SHAKE256, n = 24, h = 10; SP 800-208 type code 0x00000013. */
    XMSS_SHAKE256_10_192("XMSS-SHAKE256_10_192", Family.XMSS, 0x00000013, false, XmssHash.SHAKE256_192, 10, 1),
    /** XMSS, SHAKE256, n = 24, h = 16; SP 800-208 type code 0x00000014. */
    XMSS_SHAKE256_16_192("XMSS-SHAKE256_16_192", Family.XMSS, 0x00000014, false, XmssHash.SHAKE256_192, 16, 1),
    /** XMSS, SHAKE256, n = 24, h = 20; SP 800-208 type code 0x00000015. */
    XMSS_SHAKE256_20_192("XMSS-SHAKE256_20_192", Family.XMSS, 0x00000015, false, XmssHash.SHAKE256_192, 20, 1),
    /** XMSS^MT, SHA-256, n = 32, h = 20, d = 2; RFC 8391 type code 0x00000001. */
    XMSSMT_SHA2_20_2_256("XMSSMT-SHA2_20/2_256", Family.XMSSMT, 0x00000001, false, XmssHash.SHA2_256, 20, 2),
    /** XMSS^MT, SHA-256, n = 32, h = 20, d = 4; RFC 8391 type code 0x00000002. */
    XMSSMT_SHA2_20_4_256("XMSSMT-SHA2_20/4_256", Family.XMSSMT, 0x00000002, false, XmssHash.SHA2_256, 20, 4),
    /** XMSS^MT, SHA-256, n = 32, h = 40, d = 2; RFC 8391 type code 0x00000003. */
    XMSSMT_SHA2_40_2_256("XMSSMT-SHA2_40/2_256", Family.XMSSMT, 0x00000003, false, XmssHash.SHA2_256, 40, 2),
    /** XMSS^MT, SHA-256, n = 32, h = 40, d = 4; RFC 8391 type code 0x00000004. */
    XMSSMT_SHA2_40_4_256("XMSSMT-SHA2_40/4_256", Family.XMSSMT, 0x00000004, false, XmssHash.SHA2_256, 40, 4),
    /** XMSS^MT, SHA-256, n = 32, h = 40, d = 8; RFC 8391 type code 0x00000005. */
    XMSSMT_SHA2_40_8_256("XMSSMT-SHA2_40/8_256", Family.XMSSMT, 0x00000005, false, XmssHash.SHA2_256, 40, 8),
    /** XMSS^MT, SHA-256, n = 32, h = 60, d = 3; RFC 8391 type code 0x00000006. */
    XMSSMT_SHA2_60_3_256("XMSSMT-SHA2_60/3_256", Family.XMSSMT, 0x00000006, false, XmssHash.SHA2_256, 60, 3),
    /** XMSS^MT, SHA-256, n = 32, h = 60, d = 6; RFC 8391 type code 0x00000007. */
    XMSSMT_SHA2_60_6_256("XMSSMT-SHA2_60/6_256", Family.XMSSMT, 0x00000007, false, XmssHash.SHA2_256, 60, 6),
    /** XMSS^MT, SHA-256, n = 32, h = 60, d = 12; RFC 8391 type code 0x00000008. */
    XMSSMT_SHA2_60_12_256("XMSSMT-SHA2_60/12_256", Family.XMSSMT, 0x00000008, false, XmssHash.SHA2_256, 60, 12),
    /** XMSS^MT, SHA-512, n = 64, h = 20, d = 2; RFC 8391 type code 0x00000009. */
    XMSSMT_SHA2_20_2_512("XMSSMT-SHA2_20/2_512", Family.XMSSMT, 0x00000009, false, XmssHash.SHA2_512, 20, 2),
    /** XMSS^MT, SHA-512, n = 64, h = 20, d = 4; RFC 8391 type code 0x0000000A. */
    XMSSMT_SHA2_20_4_512("XMSSMT-SHA2_20/4_512", Family.XMSSMT, 0x0000000A, false, XmssHash.SHA2_512, 20, 4),
    /** XMSS^MT, SHA-512, n = 64, h = 40, d = 2; RFC 8391 type code 0x0000000B. */
    XMSSMT_SHA2_40_2_512("XMSSMT-SHA2_40/2_512", Family.XMSSMT, 0x0000000B, false, XmssHash.SHA2_512, 40, 2),
    /** XMSS^MT, SHA-512, n = 64, h = 40, d = 4; RFC 8391 type code 0x0000000C. */
    XMSSMT_SHA2_40_4_512("XMSSMT-SHA2_40/4_512", Family.XMSSMT, 0x0000000C, false, XmssHash.SHA2_512, 40, 4),
    /** XMSS^MT, SHA-512, n = 64, h = 40, d = 8; RFC 8391 type code 0x0000000D. */
    XMSSMT_SHA2_40_8_512("XMSSMT-SHA2_40/8_512", Family.XMSSMT, 0x0000000D, false, XmssHash.SHA2_512, 40, 8),
    /** XMSS^MT, SHA-512, n = 64, h = 60, d = 3; RFC 8391 type code 0x0000000E. */
    XMSSMT_SHA2_60_3_512("XMSSMT-SHA2_60/3_512", Family.XMSSMT, 0x0000000E, false, XmssHash.SHA2_512, 60, 3),
    /** XMSS^MT, SHA-512, n = 64, h = 60, d = 6; RFC 8391 type code 0x0000000F. */
    XMSSMT_SHA2_60_6_512("XMSSMT-SHA2_60/6_512", Family.XMSSMT, 0x0000000F, false, XmssHash.SHA2_512, 60, 6),
    /** XMSS^MT, SHA-512, n = 64, h = 60, d = 12; RFC 8391 type code 0x00000010. */
    XMSSMT_SHA2_60_12_512("XMSSMT-SHA2_60/12_512", Family.XMSSMT, 0x00000010, false, XmssHash.SHA2_512, 60, 12),
    /** XMSS^MT, SHAKE128, n = 32, h = 20, d = 2; RFC 8391 type code 0x00000011. */
    XMSSMT_SHAKE_20_2_256("XMSSMT-SHAKE_20/2_256", Family.XMSSMT, 0x00000011, false, XmssHash.SHAKE128_256, 20, 2),
    /** XMSS^MT, SHAKE128, n = 32, h = 20, d = 4; RFC 8391 type code 0x00000012. */
    XMSSMT_SHAKE_20_4_256("XMSSMT-SHAKE_20/4_256", Family.XMSSMT, 0x00000012, false, XmssHash.SHAKE128_256, 20, 4),
    /** XMSS^MT, SHAKE128, n = 32, h = 40, d = 2; RFC 8391 type code 0x00000013. */
    XMSSMT_SHAKE_40_2_256("XMSSMT-SHAKE_40/2_256", Family.XMSSMT, 0x00000013, false, XmssHash.SHAKE128_256, 40, 2),
    /** XMSS^MT, SHAKE128, n = 32, h = 40, d = 4; RFC 8391 type code 0x00000014. */
    XMSSMT_SHAKE_40_4_256("XMSSMT-SHAKE_40/4_256", Family.XMSSMT, 0x00000014, false, XmssHash.SHAKE128_256, 40, 4),
    /** XMSS^MT, SHAKE128, n = 32, h = 40, d = 8; RFC 8391 type code 0x00000015. */
    XMSSMT_SHAKE_40_8_256("XMSSMT-SHAKE_40/8_256", Family.XMSSMT, 0x00000015, false, XmssHash.SHAKE128_256, 40, 8),
    /** XMSS^MT, SHAKE128, n = 32, h = 60, d = 3; RFC 8391 type code 0x00000016. */
    XMSSMT_SHAKE_60_3_256("XMSSMT-SHAKE_60/3_256", Family.XMSSMT, 0x00000016, false, XmssHash.SHAKE128_256, 60, 3),
    /** XMSS^MT, SHAKE128, n = 32, h = 60, d = 6; RFC 8391 type code 0x00000017. */
    XMSSMT_SHAKE_60_6_256("XMSSMT-SHAKE_60/6_256", Family.XMSSMT, 0x00000017, false, XmssHash.SHAKE128_256, 60, 6),
    /** XMSS^MT, SHAKE128, n = 32, h = 60, d = 12; RFC 8391 type code 0x00000018. */
    XMSSMT_SHAKE_60_12_256("XMSSMT-SHAKE_60/12_256", Family.XMSSMT, 0x00000018, false, XmssHash.SHAKE128_256, 60, 12),
    /** XMSS^MT, SHAKE256, n = 64, h = 20, d = 2; RFC 8391 type code 0x00000019. */
    XMSSMT_SHAKE_20_2_512("XMSSMT-SHAKE_20/2_512", Family.XMSSMT, 0x00000019, false, XmssHash.SHAKE256_512, 20, 2),
    /** XMSS^MT, SHAKE256, n = 64, h = 20, d = 4; RFC 8391 type code 0x0000001A. */
    XMSSMT_SHAKE_20_4_512("XMSSMT-SHAKE_20/4_512", Family.XMSSMT, 0x0000001A, false, XmssHash.SHAKE256_512, 20, 4),
    /** XMSS^MT, SHAKE256, n = 64, h = 40, d = 2; RFC 8391 type code 0x0000001B. */
    XMSSMT_SHAKE_40_2_512("XMSSMT-SHAKE_40/2_512", Family.XMSSMT, 0x0000001B, false, XmssHash.SHAKE256_512, 40, 2),
    /** XMSS^MT, SHAKE256, n = 64, h = 40, d = 4; RFC 8391 type code 0x0000001C. */
    XMSSMT_SHAKE_40_4_512("XMSSMT-SHAKE_40/4_512", Family.XMSSMT, 0x0000001C, false, XmssHash.SHAKE256_512, 40, 4),
    /** XMSS^MT, SHAKE256, n = 64, h = 40, d = 8; RFC 8391 type code 0x0000001D. */
    XMSSMT_SHAKE_40_8_512("XMSSMT-SHAKE_40/8_512", Family.XMSSMT, 0x0000001D, false, XmssHash.SHAKE256_512, 40, 8),
    /** XMSS^MT, SHAKE256, n = 64, h = 60, d = 3; RFC 8391 type code 0x0000001E. */
    XMSSMT_SHAKE_60_3_512("XMSSMT-SHAKE_60/3_512", Family.XMSSMT, 0x0000001E, false, XmssHash.SHAKE256_512, 60, 3),
    /** XMSS^MT, SHAKE256, n = 64, h = 60, d = 6; RFC 8391 type code 0x0000001F. */
    XMSSMT_SHAKE_60_6_512("XMSSMT-SHAKE_60/6_512", Family.XMSSMT, 0x0000001F, false, XmssHash.SHAKE256_512, 60, 6),
    /** XMSS^MT, SHAKE256, n = 64, h = 60, d = 12; RFC 8391 type code 0x00000020. */
    XMSSMT_SHAKE_60_12_512("XMSSMT-SHAKE_60/12_512", Family.XMSSMT, 0x00000020, false, XmssHash.SHAKE256_512, 60, 12),
    /** XMSS^MT, SHA-256/192, n = 24, h = 20, d = 2; SP 800-208 type code 0x00000021. */
    XMSSMT_SHA2_20_2_192("XMSSMT-SHA2_20/2_192", Family.XMSSMT, 0x00000021, false, XmssHash.SHA2_192, 20, 2),
    /** XMSS^MT, SHA-256/192, n = 24, h = 20, d = 4; SP 800-208 type code 0x00000022. */
    XMSSMT_SHA2_20_4_192("XMSSMT-SHA2_20/4_192", Family.XMSSMT, 0x00000022, false, XmssHash.SHA2_192, 20, 4),
    /** XMSS^MT, SHA-256/192, n = 24, h = 40, d = 2; SP 800-208 type code 0x00000023. */
    XMSSMT_SHA2_40_2_192("XMSSMT-SHA2_40/2_192", Family.XMSSMT, 0x00000023, false, XmssHash.SHA2_192, 40, 2),
    /** XMSS^MT, SHA-256/192, n = 24, h = 40, d = 4; SP 800-208 type code 0x00000024. */
    XMSSMT_SHA2_40_4_192("XMSSMT-SHA2_40/4_192", Family.XMSSMT, 0x00000024, false, XmssHash.SHA2_192, 40, 4),
    /** XMSS^MT, SHA-256/192, n = 24, h = 40, d = 8; SP 800-208 type code 0x00000025. */
    XMSSMT_SHA2_40_8_192("XMSSMT-SHA2_40/8_192", Family.XMSSMT, 0x00000025, false, XmssHash.SHA2_192, 40, 8),
    /** XMSS^MT, SHA-256/192, n = 24, h = 60, d = 3; SP 800-208 type code 0x00000026. */
    XMSSMT_SHA2_60_3_192("XMSSMT-SHA2_60/3_192", Family.XMSSMT, 0x00000026, false, XmssHash.SHA2_192, 60, 3),
    /** XMSS^MT, SHA-256/192, n = 24, h = 60, d = 6; SP 800-208 type code 0x00000027. */
    XMSSMT_SHA2_60_6_192("XMSSMT-SHA2_60/6_192", Family.XMSSMT, 0x00000027, false, XmssHash.SHA2_192, 60, 6),
    /** XMSS^MT, SHA-256/192, n = 24, h = 60, d = 12; SP 800-208 type code 0x00000028. */
    XMSSMT_SHA2_60_12_192("XMSSMT-SHA2_60/12_192", Family.XMSSMT, 0x00000028, false, XmssHash.SHA2_192, 60, 12),
    /** XMSS^MT, SHAKE256, n = 32, h = 20, d = 2; SP 800-208 type code 0x00000029. */
    XMSSMT_SHAKE256_20_2_256(
            "XMSSMT-SHAKE256_20/2_256", Family.XMSSMT, 0x00000029, false, XmssHash.SHAKE256_256, 20, 2),
    /** XMSS^MT, SHAKE256, n = 32, h = 20, d = 4; SP 800-208 type code 0x0000002A. */
    XMSSMT_SHAKE256_20_4_256(
            "XMSSMT-SHAKE256_20/4_256", Family.XMSSMT, 0x0000002A, false, XmssHash.SHAKE256_256, 20, 4),
    /** XMSS^MT, SHAKE256, n = 32, h = 40, d = 2; SP 800-208 type code 0x0000002B. */
    XMSSMT_SHAKE256_40_2_256(
            "XMSSMT-SHAKE256_40/2_256", Family.XMSSMT, 0x0000002B, false, XmssHash.SHAKE256_256, 40, 2),
    /** XMSS^MT, SHAKE256, n = 32, h = 40, d = 4; SP 800-208 type code 0x0000002C. */
    XMSSMT_SHAKE256_40_4_256(
            "XMSSMT-SHAKE256_40/4_256", Family.XMSSMT, 0x0000002C, false, XmssHash.SHAKE256_256, 40, 4),
    /** XMSS^MT, SHAKE256, n = 32, h = 40, d = 8; SP 800-208 type code 0x0000002D. */
    XMSSMT_SHAKE256_40_8_256(
            "XMSSMT-SHAKE256_40/8_256", Family.XMSSMT, 0x0000002D, false, XmssHash.SHAKE256_256, 40, 8),
    /** XMSS^MT, SHAKE256, n = 32, h = 60, d = 3; SP 800-208 type code 0x0000002E. */
    XMSSMT_SHAKE256_60_3_256(
            "XMSSMT-SHAKE256_60/3_256", Family.XMSSMT, 0x0000002E, false, XmssHash.SHAKE256_256, 60, 3),
    /** XMSS^MT, SHAKE256, n = 32, h = 60, d = 6; SP 800-208 type code 0x0000002F. */
    XMSSMT_SHAKE256_60_6_256(
            "XMSSMT-SHAKE256_60/6_256", Family.XMSSMT, 0x0000002F, false, XmssHash.SHAKE256_256, 60, 6),
    /** XMSS^MT, SHAKE256, n = 32, h = 60, d = 12; SP 800-208 type code 0x00000030. */
    XMSSMT_SHAKE256_60_12_256(
            "XMSSMT-SHAKE256_60/12_256", Family.XMSSMT, 0x00000030, false, XmssHash.SHAKE256_256, 60, 12),
    /** XMSS^MT, SHAKE256, n = 24, h = 20, d = 2; SP 800-208 type code 0x00000031. */
    XMSSMT_SHAKE256_20_2_192(
            "XMSSMT-SHAKE256_20/2_192", Family.XMSSMT, 0x00000031, false, XmssHash.SHAKE256_192, 20, 2),
    /** XMSS^MT, SHAKE256, n = 24, h = 20, d = 4; SP 800-208 type code 0x00000032. */
    XMSSMT_SHAKE256_20_4_192(
            "XMSSMT-SHAKE256_20/4_192", Family.XMSSMT, 0x00000032, false, XmssHash.SHAKE256_192, 20, 4),
    /** XMSS^MT, SHAKE256, n = 24, h = 40, d = 2; SP 800-208 type code 0x00000033. */
    XMSSMT_SHAKE256_40_2_192(
            "XMSSMT-SHAKE256_40/2_192", Family.XMSSMT, 0x00000033, false, XmssHash.SHAKE256_192, 40, 2),
    /** XMSS^MT, SHAKE256, n = 24, h = 40, d = 4; SP 800-208 type code 0x00000034. */
    XMSSMT_SHAKE256_40_4_192(
            "XMSSMT-SHAKE256_40/4_192", Family.XMSSMT, 0x00000034, false, XmssHash.SHAKE256_192, 40, 4),
    /** XMSS^MT, SHAKE256, n = 24, h = 40, d = 8; SP 800-208 type code 0x00000035. */
    XMSSMT_SHAKE256_40_8_192(
            "XMSSMT-SHAKE256_40/8_192", Family.XMSSMT, 0x00000035, false, XmssHash.SHAKE256_192, 40, 8),
    /** XMSS^MT, SHAKE256, n = 24, h = 60, d = 3; SP 800-208 type code 0x00000036. */
    XMSSMT_SHAKE256_60_3_192(
            "XMSSMT-SHAKE256_60/3_192", Family.XMSSMT, 0x00000036, false, XmssHash.SHAKE256_192, 60, 3),
    /** XMSS^MT, SHAKE256, n = 24, h = 60, d = 6; SP 800-208 type code 0x00000037. */
    XMSSMT_SHAKE256_60_6_192(
            "XMSSMT-SHAKE256_60/6_192", Family.XMSSMT, 0x00000037, false, XmssHash.SHAKE256_192, 60, 6),
    /** XMSS^MT, SHAKE256, n = 24, h = 60, d = 12; SP 800-208 type code 0x00000038. */
    XMSSMT_SHAKE256_60_12_192(
            "XMSSMT-SHAKE256_60/12_192", Family.XMSSMT, 0x00000038, false, XmssHash.SHAKE256_192, 60, 12),
    /** XMSS^MT, SHA-256, n = 32, h = 10, d = 2; the study's private-use type code 0xDDDE0A02. */
    XMSSMT_SHA2_10_2_256("XMSSMT-SHA2_10/2_256", Family.XMSSMT, 0xDDDE0A02, true, XmssHash.SHA2_256, 10, 2),
    /** XMSS^MT, SHA-256, n = 32, h = 30, d = 6; the study's private-use type code 0xDDDE1E06. */
    XMSSMT_SHA2_30_6_256("XMSSMT-SHA2_30/6_256", Family.XMSSMT, 0xDDDE1E06, true, XmssHash.SHA2_256, 30, 6);

    /** XMSS (one tree, RFC 8391 section 4.1) or XMSS^MT (a hypertree, section 4.2). */
    public enum Family {
        /** A single XMSS tree; type codes are those of RFC 8391's XMSS registry. */
        XMSS,
        /** A hypertree of d layers; type codes are those of RFC 8391's XMSS^MT registry. */
        XMSSMT
    }

    /** Winternitz parameter; every registered set uses w = 16. */
    public static final int W = 16;

    private static final int LOG_W = 4;

    private static final Map<String, XmssParameterSet> BY_NAME = new HashMap<>();

    static {
        for (XmssParameterSet p : values()) {
            BY_NAME.put(p.setName.toUpperCase(Locale.ROOT), p);
        }
    }

    private final String setName;
    private final Family family;
    private final int typeCode;
    private final boolean privateUse;
    private final XmssHash hash;
    private final int h;
    private final int d;

    XmssParameterSet(String setName, Family family, int typeCode, boolean privateUse, XmssHash hash, int h, int d) {
        this.setName = setName;
        this.family = family;
        this.typeCode = typeCode;
        this.privateUse = privateUse;
        this.hash = hash;
        this.h = h;
        this.d = d;
    }

    /**
     * Finds a set by its name, e.g. {@code XMSSMT-SHA2_20/4_256} (case-insensitive, surrounding
     * whitespace ignored).
     *
     * @param name the set's name
     * @return the set, or empty if no set has that name
     */
    public static Optional<XmssParameterSet> byName(String name) {
        return Optional.ofNullable(BY_NAME.get(name.trim().toUpperCase(Locale.ROOT)));
    }

    /**
     * Finds a set by family and 32-bit type code (the first 4 bytes of a public key).
     *
     * @param family XMSS or XMSS^MT; the two registries reuse the same codes
     * @param typeCode the type code, read big-endian
     * @return the set, or empty if the code is not assigned in that family
     */
    public static Optional<XmssParameterSet> byTypeCode(Family family, int typeCode) {
        for (XmssParameterSet p : values()) {
            if (p.family == family && p.typeCode == typeCode) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /**
     * All sets in registry order.
     *
     * @return an unmodifiable list of every set
     */
    public static List<XmssParameterSet> all() {
        return Collections.unmodifiableList(Arrays.asList(values()));
    }

    /** The name, e.g. {@code XMSS-SHA2_10_256}. */
    @Override
    public String toString() {
        return setName;
    }

    /** The set's name (shadows {@link Enum#name()} on purpose: the spec's name, not the constant's). */
    @Override
    public String setName() {
        return setName;
    }

    /**
     * Whether this is an XMSS or an XMSS^MT set.
     *
     * @return the family
     */
    public Family family() {
        return family;
    }

    /**
     * The 32-bit type code written in front of public keys (RFC 8391 section 5.3/5.4).
     *
     * @return the type code, unique within the family
     */
    public int typeCode() {
        return typeCode;
    }

    /**
     * Whether the type code comes from the private-use range (the study's two sets).
     *
     * @return {@code true} for XMSSMT-SHA2_10/2_256 and XMSSMT-SHA2_30/6_256
     */
    public boolean isPrivateUse() {
        return privateUse;
    }

    /**
     * The hash function family.
     *
     * @return the hash function
     */
    public XmssHash hash() {
        return hash;
    }

    /**
     * Security parameter: length of hashes, seeds and nodes in bytes.
     *
     * @return n: 24, 32 or 64
     */
    public int n() {
        return hash.n();
    }

    /**
     * Total tree height h.
     *
     * @return h
     */
    public int height() {
        return h;
    }

    /**
     * Number of layers d (1 for XMSS).
     *
     * @return d
     */
    public int layers() {
        return d;
    }

    /**
     * Height of each subtree, h / d.
     *
     * @return h / d
     */
    public int treeHeight() {
        return h / d;
    }

    /**
     * Number of WOTS+ chains that carry the message digest, len1 = ceil(8n / log2 w).
     *
     * @return len1
     */
    public int len1() {
        return (8 * n() + LOG_W - 1) / LOG_W;
    }

    /**
     * Number of WOTS+ chains that carry the checksum, len2 = floor(log2(len1 (w - 1)) / log2 w) + 1.
     *
     * @return len2
     */
    public int len2() {
        int max = len1() * (W - 1);
        int bits = 32 - Integer.numberOfLeadingZeros(max) - 1;
        return bits / LOG_W + 1;
    }

    /**
     * Number of WOTS+ chains, len = len1 + len2.
     *
     * @return len
     */
    public int wotsLen() {
        return len1() + len2();
    }

    /**
     * Bytes of the leaf index at the start of a signature.
     *
     * @return 4 for XMSS, ceil(h/8) for XMSS^MT
     */
    public int indexBytes() {
        return family == Family.XMSS ? 4 : (h + 7) / 8;
    }

    /**
     * Bytes of one WOTS+ signature.
     *
     * @return len * n
     */
    public int wotsSignatureBytes() {
        return wotsLen() * n();
    }

    /** Signature length: index, randomness r, then per layer a WOTS+ signature and h/d auth nodes. */
    @Override
    public int signatureBytes() {
        return indexBytes() + n() + d * (wotsSignatureBytes() + treeHeight() * n());
    }

    /** RFC 8391 public key: type code (4 bytes) || root || PUB_SEED. */
    @Override
    public int publicKeyBytes() {
        return 4 + 2 * n();
    }

    /**
     * Number of signatures a key of this set can make.
     *
     * @return 2^h
     */
    public long maxSignatures() {
        return 1L << h;
    }

    @Override
    public boolean isStateful() {
        return true;
    }
}
