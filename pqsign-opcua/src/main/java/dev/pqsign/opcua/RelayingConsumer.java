package dev.pqsign.opcua;

import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.operator.KeyHistory;
import dev.pqsign.telemetry.operator.ReceivedValue;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Hands every record-node value on unverified ({@link Operator#relaying}). The same publication
 * seen twice (from the history and live) is relayed once; before the first record of a key
 * announced by the handover read at subscription time, that handover is relayed, so a relay that
 * was away during a rollover still delivers the handover ahead of the new key's readings.
 */
final class RelayingConsumer implements RecordSubscription.Consumer {
    private static final System.Logger LOG = System.getLogger(RelayingConsumer.class.getName());
    private static final int RECENTLY_RELAYED = 65_536;

    private final String name;
    private final Operator.RecordRelay relay;
    private final Map<Long, byte[]> recentlyRelayed = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
            return size() > RECENTLY_RELAYED;
        }
    };
    /** The latest handover read before a backfill, not relayed yet. */
    private SignedKeyHandover pendingHandover;

    RelayingConsumer(String name, Operator.RecordRelay relay) {
        this.name = name;
        this.relay = relay;
    }

    @Override
    public Optional<Instant> backfillFrom() {
        return relay.backfillFrom(name);
    }

    @Override
    public void backfillStarting(KeyHistory history) {
        try {
            byte[] latest = history.latest().handover();
            pendingHandover = latest.length == 0 ? null : SignedKeyHandover.decode(latest);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.DEBUG, "{0}: cannot read the latest key handover: {1}", name, e.getMessage());
            pendingHandover = null;
        }
    }

    @Override
    public void backfillEnded() {
        SignedKeyHandover pending = pendingHandover;
        if (pending != null) {
            // no record of its new key in the history: relayed after the old key's readings
            pendingHandover = null;
            relay.relay(name, pending.encode(), Instant.now());
        }
    }

    @Override
    public boolean accept(ReceivedValue value, KeyHistory history) {
        byte[] v = value.bytes();
        if (v == null) {
            LOG.log(Level.WARNING, "{0}: record node holds {1}; nothing relayed", name, value.description());
            return true;
        }
        if (v.length >= 4 && v[0] == 'P' && v[1] == 'Q' && v[2] == 'H' && v[3] == 'O') {
            pendingHandover = null;
            relay.relay(name, v, value.receivedAt());
            return true;
        }
        try {
            SignedRecord record = SignedRecord.decode(v);
            byte[] digest = record.contentDigest();
            byte[] seen = recentlyRelayed.get(record.sequence());
            if (seen != null && MessageDigest.isEqual(seen, digest)) {
                return true;
            }
            recentlyRelayed.put(record.sequence(), digest);
            SignedKeyHandover pending = pendingHandover;
            if (pending != null
                    && Arrays.equals(
                            pending.statement().newKeyId(), record.keyId().bytes())) {
                pendingHandover = null;
                relay.relay(name, pending.encode(), value.receivedAt());
            }
        } catch (IllegalArgumentException e) {
            // not a record: relayed as is, for the verifier to report
        }
        relay.relay(name, v, value.receivedAt());
        return true;
    }
}
