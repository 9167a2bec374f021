package dev.pqsign.opcua;

import java.util.List;

/**
 * Names of the sensor's OPC UA nodes. All live in namespace {@link #NAMESPACE_URI} with string node
 * ids equal to their names, under the object {@link #SENSOR_OBJECT} in the Objects folder. The first
 * three are the triple of the industrial study.
 */
public final class SensorNodes {

    private SensorNodes() {}

    /** Namespace of the sensor's nodes. */
    public static final String NAMESPACE_URI = "urn:pqsign:telemetry:sensor";

    /** The sensor object (organized by the Objects folder). */
    public static final String SENSOR_OBJECT = "sensor";

    /** String: the reading text. */
    public static final String RAW_DATA = "current.sensor.rawdata.string";
    /** ByteString: the signature over the canonical signed-reading message. */
    public static final String SIGNATURE = "current.sensor.signature";
    /** UInt32: the index the reading was signed under. */
    public static final String INDEX = "current.signature.index";

    /** String: the parameter-set name the current reading was signed with. */
    public static final String PARAMETER_SET = "current.signature.parameterset";
    /** ByteString: SHA-256 of the sensor's public key encoding (selects the pinned key). */
    public static final String KEY_ID = "current.sensor.keyid";
    /** ByteString: the sensor's certificate, DER (empty if none was configured). */
    public static final String CERTIFICATE = "current.sensor.certificate";
    /** Double: how long signing the current reading took, in milliseconds. */
    public static final String SIGN_TIME_MS = "current.sign.time.ms";
    /** Int64: the sensor's {@code System.nanoTime()} when signing of the current reading began. */
    public static final String SIGN_START_NANOTIME = "current.sign.start.nanotime";
    /** Int64: the sensor's {@code System.nanoTime()} when the current reading was published. */
    public static final String PUBLISH_NANOTIME = "current.publish.nanotime";
    /**
     * Int64: publication counter, incremented with every update of the triple (including injected
     * test values); it starts from the wall clock in microseconds at server start, so it keeps
     * increasing across sensor restarts. The operator subscribes to it; it only de-duplicates
     * notifications and carries no security meaning.
     */
    public static final String SEQUENCE = "current.publication.sequence";

    /**
     * ByteString: the whole signed record of the current reading in one value (format
     * {@code docs/formats/signed-record.md}: key id, parameter set, index, reading, signature,
     * source time, ...). The operator subscribes to this node and verifies every notification by
     * itself, without a follow-up Read.
     */
    public static final String RECORD = "current.signed.record";

    /**
     * ByteString: the signed key handover record (docs/formats/key-handover.md) that made the
     * current key current; empty while the sensor signs with its first key. The same record is also
     * published once on {@link #RECORD}, in order between the last reading of the old key and the
     * first of the new one.
     */
    public static final String KEY_HANDOVER = "current.key.handover";
    /**
     * ByteString: the certificate chain of the current key (docs/formats/key-certificates.md: the
     * key's certificate, then the device CA's), for a sensor whose device CA certifies each new key;
     * empty otherwise. Changes in the same update as {@link #KEY_HANDOVER}. Each chain is also
     * published once on {@link #RECORD}, right before the handover record that introduces its key.
     * With a history, its raw history has, at each handover's time, the chain of the key that
     * handover introduced (empty without one).
     */
    public static final String KEY_CERTIFICATES = "current.key.certificates";
    /** Int64: generation of the current key (0 = the key operators pinned). */
    public static final String KEY_GENERATION = "current.key.generation";
    /** Int64: signatures the current key can still make (-1 for keys without a limit). */
    public static final String KEY_REMAINING = "current.key.remaining";
    /** Double: seconds until the current key runs out at the observed signing rate (NaN if unknown). */
    public static final String KEY_SECONDS_LEFT = "current.key.timeleft.s";
    /** Boolean: the next key is prepared (durable, not yet announced). */
    public static final String KEY_NEXT_READY = "current.key.next.ready";
    /** String: why the next key cannot be prepared (empty when all is well): an alarm. */
    public static final String KEY_ALARM = "current.key.alarm";

    /**
     * The nodes a client reads in one Read request for a consistent snapshot of the current
     * reading (the study's way; the operator uses {@link #RECORD} instead), in this order.
     */
    public static final List<String> SNAPSHOT = List.of(
            RAW_DATA,
            SIGNATURE,
            INDEX,
            PARAMETER_SET,
            KEY_ID,
            SIGN_TIME_MS,
            SIGN_START_NANOTIME,
            PUBLISH_NANOTIME,
            SEQUENCE);
}
