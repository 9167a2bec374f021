package dev.pqsign.core.internal;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Secrets;
import dev.pqsign.core.SigningFaultException;
import dev.pqsign.core.StatePersistenceException;
import dev.pqsign.core.StateStore;
import dev.pqsign.core.StatefulSigner;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongFunction;

/**
 * The scheme-independent half of a {@link StatefulSigner} (XMSS, XMSS^MT, HSS): never reuses an
 * index of a key whose state lives in a {@link StateStore}.
 *
 * <ol>
 * <li>Reserve: under the store's lock (threads and processes), re-read the state, check it is still
 * this key's and has not been rolled back, advance its next index by up to the batch size, and write
 * it durably. Only then is an index of that batch handed to {@link OneTimeSigning#sign}.</li>
 * <li>Reserving ahead (optional): as soon as a signature used the last reserved index, the next
 * batch is reserved, and the signature's upkeep ({@link OneTimeSigning#afterSign}) done, on one
 * background thread; a sign that arrives first does both itself under the same lock.</li>
 * <li>Close: unused reserved indices are given back when that is provably safe (the stored next
 * index is still exactly this signer's reservation end).</li>
 * </ol>
 * A persistence failure, a rollback, another key in the file or a {@link SigningFaultException} makes
 * the signer unusable for good; every later sign reports why. Thread-safe.
 *
 * @param <S> the scheme's key state
 */
public final class StatefulSignerCore<S> {
    private final StateStore store;
    private final KeyStateFormat<S> format;
    private final byte[] keyId;
    private final int batch;
    private final OneTimeSigning signing;
    private final ReentrantLock lock = new ReentrantLock();

    // Written under the lock; volatile so that remaining() and nextIndex() read them without it
    // (a status read must not wait for the background upkeep, which holds the lock).
    private volatile long next;
    private long reservedEnd;
    private volatile long endIndex;
    private boolean usable = true;
    private boolean closed;
    /** Why the key became unusable (reported again by every later sign). */
    private RuntimeException failure;
    /** Background reservations and upkeep, or {@code null} when doing both synchronously. */
    private final ExecutorService ahead;
    /** Index whose upkeep has not run yet, or -1. */
    private long upkeepAfter = -1;

    /**
     * Starts signing with the key in {@code state}, as read from {@code store}: prepares
     * {@code signing} for the stored next index if any is left and, when reserving ahead, reserves
     * the first batch in the background right away (so the first signature does not wait for an
     * fsync).
     *
     * @param store the key's state store; used until {@link #close()}, never closed here
     * @param format the scheme's state format
     * @param state the state read from {@code store}
     * @param batch indices reserved per durable write, at least 1
     * @param reserveAhead whether to reserve and do the upkeep on a background thread
     * @param scheme names the background thread ({@code xmss}, {@code hss})
     * @param signing the scheme's half, owning the key's secrets from now on
     * @throws RuntimeException what {@link OneTimeSigning#prepare} throws; {@code signing} is destroyed
     */
    public StatefulSignerCore(
            StateStore store,
            KeyStateFormat<S> format,
            S state,
            int batch,
            boolean reserveAhead,
            String scheme,
            OneTimeSigning signing) {
        this.store = store;
        this.format = format;
        this.keyId = format.keyId(state);
        this.batch = batch;
        this.signing = signing;
        IndexRange range = format.range(state);
        this.next = range.next();
        this.reservedEnd = range.next();
        this.endIndex = range.end();
        this.ahead = reserveAhead
                ? Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, scheme + "-reserve-ahead " + store.describe());
                    t.setDaemon(true);
                    return t;
                })
                : null;
        if (range.remaining() > 0) {
            try {
                signing.prepare(range.next(), range.end());
            } catch (RuntimeException e) {
                shutdownAhead();
                signing.destroy();
                throw e;
            }
            if (ahead != null) {
                ahead.execute(this::workAhead);
            }
        }
    }

    /**
     * Reads and decodes the state in {@code store}; the bytes read are wiped.
     *
     * @param <S> the scheme's key state
     * @param store the key's state store
     * @param format the scheme's state format
     * @return the decoded state
     * @throws KeyFormatException if the stored bytes are not a valid key state (the message names the store)
     * @throws StatePersistenceException if the store cannot be read
     */
    public static <S> S read(StateStore store, KeyStateFormat<S> format) {
        byte[] bytes = null;
        try {
            bytes = store.read();
            return format.decode(bytes);
        } catch (KeyFormatException e) {
            throw new KeyFormatException(store.describe() + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new StatePersistenceException("cannot read key state " + store.describe() + ": " + e.getMessage(), e);
        } finally {
            Secrets.wipe(bytes);
        }
    }

    /**
     * Durably creates the first state of a new key in {@code store} (fails if one exists); the
     * encoded bytes are wiped.
     *
     * @param <S> the scheme's key state
     * @param store the empty store
     * @param format the scheme's state format
     * @param fresh the new key's state
     * @return {@code fresh}
     * @throws IOException if a state already exists in {@code store} or it cannot be written durably
     */
    public static <S> S create(StateStore store, KeyStateFormat<S> format, S fresh) throws IOException {
        byte[] bytes = format.encode(fresh);
        try {
            store.create(bytes);
        } finally {
            Secrets.wipe(bytes);
        }
        return fresh;
    }

    /**
     * Signs {@code message} under the next index ({@link StatefulSigner#sign}).
     *
     * @param message the message
     * @return the signature
     */
    public byte[] sign(byte[] message) {
        Objects.requireNonNull(message, "message");
        return signIndexed(i -> message).signature();
    }

    /**
     * Reserves the next index if none is reserved, builds the message for it and signs it
     * ({@link StatefulSigner#signIndexed}).
     *
     * @param messageForIndex builds the message from the index; called once
     * @return the index and its signature
     * @throws KeyExhaustedException if no index is left
     * @throws StatePersistenceException if the reservation could not be made durable, or an earlier one failed
     * @throws SigningFaultException if a check of the computation failed, now or before
     * @throws IllegalStateException if the signer is closed
     */
    public IndexedSignature signIndexed(LongFunction<byte[]> messageForIndex) {
        Objects.requireNonNull(messageForIndex, "messageForIndex");
        lock.lock();
        try {
            ensureUsable();
            upkeep();
            if (next >= reservedEnd) {
                reserve();
            }
            long idx = next;
            next = idx + 1;
            byte[] message = Objects.requireNonNull(messageForIndex.apply(idx), "message for index " + idx);
            IndexedSignature result;
            try {
                result = new IndexedSignature(idx, signing.sign(idx, message));
            } catch (SigningFaultException e) {
                throw fail(e);
            }
            upkeepAfter = idx;
            if (ahead == null) {
                try {
                    upkeep();
                } catch (SigningFaultException e) {
                    // Recorded by upkeep(): this signature is sound, the next sign reports the fault.
                }
            } else {
                try {
                    ahead.execute(this::workAhead);
                } catch (RejectedExecutionException e) {
                    // close() has begun: no upkeep or reservation is needed, and this signature stands.
                }
            }
            return result;
        } finally {
            lock.unlock();
        }
    }

    /** Brings the caches up to date for the index after the last signature, if that is still to do. */
    private void upkeep() {
        if (upkeepAfter >= 0) {
            long signed = upkeepAfter;
            upkeepAfter = -1;
            try {
                signing.afterSign(signed, endIndex);
            } catch (SigningFaultException e) {
                throw fail(e);
            }
        }
    }

    /**
     * The background half: the last signature's upkeep, then the next reservation if the batch is
     * used up. Re-checks under the lock, because a sign may have done either in the meantime; a
     * failure makes the key unusable exactly as in {@link #reserve()}, and the next sign reports it.
     */
    private void workAhead() {
        lock.lock();
        try {
            if (closed || !usable) {
                return;
            }
            upkeep();
            if (next >= reservedEnd && next < endIndex) {
                reserve();
            }
        } catch (KeyExhaustedException | StatePersistenceException | SigningFaultException e) {
            // Recorded by reserve() or fail() (exhaustion is rediscovered by the next sign).
        } finally {
            lock.unlock();
        }
    }

    /** Durably advances the stored next index by up to {@code batch} before any of them is used. */
    private void reserve() {
        long[] range = new long[2];
        try {
            store.update(current -> {
                S s;
                try {
                    s = decodeOwn(current);
                } finally {
                    Secrets.wipe(current);
                }
                try {
                    IndexRange stored = format.range(s);
                    if (stored.next() < reservedEnd) {
                        throw new RollbackException(stored.next(), reservedEnd);
                    }
                    range[0] = stored.next();
                    if (stored.remaining() == 0) {
                        range[1] = stored.end();
                        throw new ExhaustedInside();
                    }
                    range[1] = Math.min(stored.end(), stored.next() + batch);
                    endIndex = stored.end();
                    return format.encode(format.withNextIndex(s, range[1]));
                } finally {
                    format.destroy(s);
                }
            });
        } catch (ExhaustedInside e) {
            next = reservedEnd = range[0];
            endIndex = range[1];
            throw new KeyExhaustedException(
                    "key " + store.describe() + " is exhausted: all indices up to " + endIndex + " are used");
        } catch (RollbackException e) {
            throw fail(new StatePersistenceException("key state " + store.describe() + " went back from index "
                    + e.expected + " to " + e.found + " (restored backup or copied file?); refusing to sign"));
        } catch (KeyFormatException e) {
            throw fail(new StatePersistenceException(
                    "key state " + store.describe() + " changed under the signer: " + e.getMessage(), e));
        } catch (IOException | RuntimeException e) {
            throw fail(new StatePersistenceException(
                    "cannot persist key state " + store.describe() + ": " + e.getMessage()
                            + "; the key is unusable in this process until reopened",
                    e));
        }
        long start = range[0];
        if (start != next) {
            // Another signer of this key file used indices meanwhile: move there (the caches follow).
            try {
                signing.moveTo(start);
            } catch (SigningFaultException e) {
                throw fail(e);
            }
        }
        next = start;
        reservedEnd = range[1];
    }

    /** Makes the key unusable for good and remembers why. */
    private <E extends RuntimeException> E fail(E e) {
        usable = false;
        failure = e;
        return e;
    }

    /** Decodes {@code current}; throws (and wipes the decoded key) if it is another key's state. */
    private S decodeOwn(byte[] current) {
        S s = format.decode(current);
        if (!Secrets.constantTimeEquals(format.keyId(s), keyId)) {
            format.destroy(s);
            throw new KeyFormatException("it now holds the state of a different key");
        }
        return s;
    }

    private void ensureUsable() {
        if (closed) {
            throw new IllegalStateException("signer is closed");
        }
        if (!usable) {
            String why = failure != null ? " (" + failure.getMessage() + ")" : "";
            if (failure instanceof SigningFaultException) {
                throw new SigningFaultException("key " + store.describe() + " is unusable after a signing fault" + why);
            }
            throw new StatePersistenceException(
                    "key " + store.describe() + " is unusable after an earlier persistence failure; reopen it" + why,
                    failure);
        }
    }

    /**
     * Signatures left ({@link StatefulSigner#remaining}); reads no lock.
     *
     * @return the count of unused indices, 0 when exhausted
     */
    public long remaining() {
        return Math.max(0, endIndex - next);
    }

    /**
     * The index the next signature will use ({@link StatefulSigner#nextIndex}); reads no lock.
     *
     * @return the next index
     */
    public long nextIndex() {
        return next;
    }

    /**
     * Indices reserved on disk but not yet used by this signer (lost if the process dies now).
     *
     * @return the number of reserved, unused indices
     */
    public long reservedUnused() {
        lock.lock();
        try {
            return reservedEnd - next;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether the signer may still sign ({@link StatefulSigner#isUsable}).
     *
     * @return {@code false} after a failure or after {@link #close()}
     */
    public boolean isUsable() {
        lock.lock();
        try {
            return usable && !closed;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gives unused reserved indices back when that is provably safe (the stored next index is still
     * exactly our reservation end, so nobody else has used or reserved beyond it), then destroys the
     * scheme's half with the key's secrets. Idempotent.
     */
    public void close() {
        shutdownAhead();
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (usable && reservedEnd > next) {
                giveBack();
            }
            signing.destroy();
        } finally {
            lock.unlock();
        }
    }

    private void giveBack() {
        try {
            store.update(current -> {
                S s = decodeOwn(current);
                try {
                    IndexRange stored = format.range(s);
                    if (stored.next() != reservedEnd) {
                        return current;
                    }
                    return format.encode(format.withNextIndex(s, next));
                } finally {
                    format.destroy(s);
                }
            });
        } catch (IOException | RuntimeException e) {
            // Keeping the reservation only wastes indices; it never risks reuse.
        }
    }

    private void shutdownAhead() {
        if (ahead != null) {
            // Let a reservation in flight finish (it must not be interrupted: an interrupt closes the
            // state file's channel); queued ones see `closed` and do nothing.
            ahead.shutdown();
        }
    }

    /** Thrown inside the store update to abort without writing. */
    private static final class ExhaustedInside extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ExhaustedInside() {
            super(null, null, false, false);
        }
    }

    /** Thrown inside the store update when the stored next index went back below our reservation. */
    private static final class RollbackException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final long found;
        final long expected;

        RollbackException(long found, long expected) {
            super(null, null, false, false);
            this.found = found;
            this.expected = expected;
        }
    }
}
