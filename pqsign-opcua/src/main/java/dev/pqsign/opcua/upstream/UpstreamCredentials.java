package dev.pqsign.opcua.upstream;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import javax.security.auth.Destroyable;

/**
 * A user name and password for the upstream session, read from a file ({@code --source-credentials
 * FILE}), never from the command line: two lines, {@code user=NAME} and {@code password=SECRET}
 * (UTF-8, at most {@value #MAX_FILE_BYTES} bytes; the password is everything after the first
 * {@code =}, spaces included; a final line break is not part of it). Like ssh with a private key, a
 * file that its group or others may read, write or execute is refused. Neither the password nor the
 * file's content appears in any message or in {@link #toString()}.
 *
 * <p>The password is held as bytes, never as a {@code String} (which could not be wiped): the
 * file's bytes and their decoded characters are zeroed as soon as it is read, {@link #password()}
 * hands out copies for the caller to wipe, and {@link #destroy()} zeroes the held bytes.
 */
public final class UpstreamCredentials implements Destroyable {
    /** Largest credentials file. */
    public static final int MAX_FILE_BYTES = 4096;

    private static final byte[] USER = "user=".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PASSWORD = "password=".getBytes(StandardCharsets.US_ASCII);

    /** Group and others: any of these on the file is refused. */
    private static final Set<PosixFilePermission> NOT_PRIVATE = EnumSet.of(
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_EXECUTE);

    private final String user;
    private final byte[] password; // guarded by this
    private boolean destroyed; // guarded by this

    private UpstreamCredentials(String user, byte[] password) {
        this.user = user;
        this.password = password;
    }

    /**
     * Reads a credentials file.
     *
     * @param file the file
     * @return the credentials
     * @throws IOException if the file cannot be read, or (as an {@link IllegalArgumentException},
     *     one line naming the file, without the content) is accessible by group or others, is not a
     *     regular file, or is not two lines {@code user=} and {@code password=}
     */
    public static UpstreamCredentials read(Path file) throws IOException {
        if (Files.isDirectory(file) || (Files.exists(file) && !Files.isRegularFile(file))) {
            throw new IllegalArgumentException(file + " is not a regular file");
        }
        checkPrivate(file);
        if (Files.size(file) > MAX_FILE_BYTES) {
            throw new IllegalArgumentException(file + " is larger than " + MAX_FILE_BYTES + " bytes");
        }
        byte[] raw = Files.readAllBytes(file);
        try {
            checkUtf8(file, raw);
            return parse(file, raw);
        } finally {
            Arrays.fill(raw, (byte) 0);
        }
    }

    /** Refuses a file its group or others may access (where the file system has POSIX permissions). */
    private static void checkPrivate(Path file) throws IOException {
        Set<PosixFilePermission> permissions;
        try {
            permissions = Files.getPosixFilePermissions(file);
        } catch (UnsupportedOperationException e) {
            return; // no POSIX permissions here (e.g. Windows): the file system's ACLs decide
        }
        if (!Collections.disjoint(permissions, NOT_PRIVATE)) {
            throw new IllegalArgumentException(file + " holds a password and is accessible by group or others ("
                    + PosixFilePermissions.toString(permissions) + "); make it private: chmod 600 " + file);
        }
    }

    /** Checks that the bytes are UTF-8, zeroing the characters decoded for the check. */
    private static void checkUtf8(Path file, byte[] raw) {
        CharBuffer chars = null;
        try {
            chars = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(raw));
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(file + " is not UTF-8 text");
        } finally {
            if (chars != null && chars.hasArray()) {
                Arrays.fill(chars.array(), '\0');
            }
        }
    }

    /** The two lines, split on the bytes: {@code user=NAME LF password=SECRET [LF]} (CR LF too). */
    private static UpstreamCredentials parse(Path file, byte[] raw) {
        int firstEnd = indexOf(raw, 0);
        int secondEnd = firstEnd < 0 ? -1 : indexOf(raw, firstEnd + 1);
        boolean twoLines = firstEnd >= 0 && (secondEnd < 0 || secondEnd == raw.length - 1);
        int userEnd = twoLines ? lineEnd(raw, 0, firstEnd) : 0;
        int passwordEnd = twoLines ? lineEnd(raw, firstEnd + 1, secondEnd < 0 ? raw.length : secondEnd) : 0;
        if (!twoLines || !startsWith(raw, 0, userEnd, USER) || !startsWith(raw, firstEnd + 1, passwordEnd, PASSWORD)) {
            throw new IllegalArgumentException(
                    file + " must hold two lines, user=NAME and password=SECRET (its content is not shown)");
        }
        int passwordStart = firstEnd + 1 + PASSWORD.length;
        if (userEnd == USER.length || passwordEnd == passwordStart) {
            throw new IllegalArgumentException(file + ": the user name and the password must not be empty");
        }
        String user = new String(raw, USER.length, userEnd - USER.length, StandardCharsets.UTF_8);
        return new UpstreamCredentials(user, Arrays.copyOfRange(raw, passwordStart, passwordEnd));
    }

    private static int indexOf(byte[] b, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The end of the line {@code [start, end)} without a carriage return before its line feed. */
    private static int lineEnd(byte[] b, int start, int end) {
        return end > start && end < b.length && b[end] == '\n' && b[end - 1] == '\r' ? end - 1 : end;
    }

    private static boolean startsWith(byte[] b, int start, int end, byte[] prefix) {
        return end - start >= prefix.length && Arrays.equals(b, start, start + prefix.length, prefix, 0, prefix.length);
    }

    /**
     * The user name.
     *
     * @return the name
     */
    public String user() {
        return user;
    }

    /**
     * A copy of the password's UTF-8 bytes (the caller wipes it).
     *
     * @return the password
     * @throws IllegalStateException after {@link #destroy()}
     */
    public synchronized byte[] password() {
        if (destroyed) {
            throw new IllegalStateException("the upstream credentials were wiped");
        }
        return password.clone();
    }

    /** Zeroes the password; {@link #password()} is refused from then on. */
    @Override
    public synchronized void destroy() {
        Arrays.fill(password, (byte) 0);
        destroyed = true;
    }

    @Override
    public synchronized boolean isDestroyed() {
        return destroyed;
    }

    @Override
    public String toString() {
        return "UpstreamCredentials[user=" + user + ", password=(not shown)]";
    }
}
