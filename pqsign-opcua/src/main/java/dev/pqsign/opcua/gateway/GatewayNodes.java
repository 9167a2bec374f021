package dev.pqsign.opcua.gateway;

import java.util.List;

/**
 * Names of the gateway's OPC UA nodes (docs/gateway.md, "Node tree"). All live in namespace
 * {@link #NAMESPACE_URI}. The folder of all sensors has the numeric node id {@link #SENSORS_FOLDER};
 * each sensor's folder has the sensor's name as its string node id and browse name, and each of its
 * variables the string node id {@code SENSOR/LEAF} ({@link #nodeId}) and the browse name
 * {@code LEAF}. Leaves never contain {@code /}.
 */
public final class GatewayNodes {

    private GatewayNodes() {}

    /** Namespace of the gateway's nodes. */
    public static final String NAMESPACE_URI = "urn:pqsign:gateway";

    /** Numeric node id of the folder {@code Sensors} (organized by the Objects folder). */
    public static final int SENSORS_FOLDER = 1;

    /** String: the latest verified reading text (historized). */
    public static final String READING = "reading";
    /** Int64: the index the latest verified reading was signed under. */
    public static final String READING_INDEX = "reading.index";
    /** Double: the first field of the latest verified reading, when it is a number (historized). */
    public static final String VALUE = "value";
    /** Prefix of the Double variables of {@code name=number} fields: {@code value.NAME} (historized). */
    public static final String VALUE_PREFIX = "value.";

    /** String: the verdict word of the latest observation (ACCEPTED, REJECTED, DUPLICATE, ...). */
    public static final String VERDICT = "verdict.last";
    /** String: its reason ({@code Verdict.Reason} name). */
    public static final String VERDICT_REASON = "verdict.reason";
    /** Int64: its index (-1 if none). */
    public static final String VERDICT_INDEX = "verdict.index";
    /** String: its one-line detail. */
    public static final String VERDICT_DETAIL = "verdict.detail";

    /** Int64 counters since the operator started. */
    public static final String COUNT_ACCEPTED = "count.accepted";
    /** Int64: readings rejected (every reason but ACCEPTED, DUPLICATE and INDEX_REUSE). */
    public static final String COUNT_REJECTED = "count.rejected";
    /** Int64: readings identical to one accepted before. */
    public static final String COUNT_DUPLICATES = "count.duplicates";
    /** Int64: valid readings under an index used before for another reading. */
    public static final String COUNT_INDEX_REUSE = "count.indexreuse";
    /** Int64: gaps (runs of missing indices). */
    public static final String COUNT_GAPS = "count.gaps";
    /** Int64: indices missing (sum of the gaps' sizes). */
    public static final String COUNT_MISSING = "count.missing";
    /** Int64: indices the sensor said it skipped (signed skip notices). */
    public static final String COUNT_SKIPPED = "count.skipped";
    /** Int64: key handovers followed. */
    public static final String COUNT_HANDOVERS = "count.handovers";
    /** Int64: key handovers refused. */
    public static final String COUNT_HANDOVERS_REJECTED = "count.handovers.rejected";

    /** String: key id (hex) of the sensor's current key. */
    public static final String KEY_ID = "key.id";
    /** String: parameter set of the current key. */
    public static final String KEY_PARAMETER_SET = "key.parameterset";
    /** Int64: key generation (0 = the pinned key). */
    public static final String KEY_GENERATION = "key.generation";
    /** Int64: signatures the current key can still make. */
    public static final String KEY_REMAINING = "key.remaining";
    /** Double: seconds until it runs out at the sensor's current rate. */
    public static final String KEY_SECONDS_LEFT = "key.secondsleft";
    /** Boolean: the next key is prepared. */
    public static final String KEY_NEXT_READY = "key.nextready";
    /** String: why the sensor cannot prepare its next key, empty when all is well. */
    public static final String KEY_ALARM = "key.alarm";

    /** String: the operator's connection to the sensor (connecting, connected, reconnecting, down, closed). */
    public static final String CONNECTION = "connection.status";
    /** DateTime: since when. */
    public static final String CONNECTION_SINCE = "connection.since";
    /** String: why (the last failure's message), one line. */
    public static final String CONNECTION_DETAIL = "connection.detail";

    /** The leaves every sensor folder has from the start, in browse order. */
    public static final List<String> FIXED_LEAVES = List.of(
            READING,
            READING_INDEX,
            VALUE,
            VERDICT,
            VERDICT_REASON,
            VERDICT_INDEX,
            VERDICT_DETAIL,
            COUNT_ACCEPTED,
            COUNT_REJECTED,
            COUNT_DUPLICATES,
            COUNT_INDEX_REUSE,
            COUNT_GAPS,
            COUNT_MISSING,
            COUNT_SKIPPED,
            COUNT_HANDOVERS,
            COUNT_HANDOVERS_REJECTED,
            KEY_ID,
            KEY_PARAMETER_SET,
            KEY_GENERATION,
            KEY_REMAINING,
            KEY_SECONDS_LEFT,
            KEY_NEXT_READY,
            KEY_ALARM,
            CONNECTION,
            CONNECTION_SINCE,
            CONNECTION_DETAIL);

    /**
     * The string node id of a sensor's variable.
     *
     * @param sensor the sensor's name
     * @param leaf one of the leaves above, or {@code value.NAME}
     * @return {@code sensor + "/" + leaf}
     */
    public static String nodeId(String sensor, String leaf) {
        return sensor + "/" + leaf;
    }
}
