package dev.pqsign.opcua.upstream;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A user name and password for the upstream session, read from a file ({@code --source-credentials
 * FILE}), never from the command line: two lines, {@code user=NAME} and {@code password=SECRET}
 * (UTF-8, at most {@value #MAX_FILE_BYTES} bytes; the password is everything after the first
 * {@code =}, spaces included; a final line break is not part of it). Neither the password nor the
 * file's content appears in any message or in {@link #toString()}.
 */
public final class UpstreamCredentials {
    /** Largest credentials file. */
    public static final int MAX_FILE_BYTES = 4096;

    private final String user;
    private final byte[] password;

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
     *     one line, without the content) is not two lines {@code user=} and {@code password=}
     */
    public static UpstreamCredentials read(Path file) throws IOException {
        if (Files.isDirectory(file) || (Files.exists(file) && !Files.isRegularFile(file))) {
            throw new IllegalArgumentException(file + " is not a regular file");
        }
        if (Files.size(file) > MAX_FILE_BYTES) {
            throw new IllegalArgumentException(file + " is larger than " + MAX_FILE_BYTES + " bytes");
        }
        byte[] raw = Files.readAllBytes(file);
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(raw))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(file + " is not UTF-8 text");
        } finally {
            Arrays.fill(raw, (byte) 0);
        }
        String[] lines = text.split("\r?\n", -1);
        int n = lines.length > 0 && lines[lines.length - 1].isEmpty() ? lines.length - 1 : lines.length;
        if (n != 2 || !lines[0].startsWith("user=") || !lines[1].startsWith("password=")) {
            throw new IllegalArgumentException(
                    file + " must hold two lines, user=NAME and password=SECRET (its content is not shown)");
        }
        String user = lines[0].substring(5);
        if (user.isEmpty() || lines[1].length() == 9) {
            throw new IllegalArgumentException(file + ": the user name and the password must not be empty");
        }
        return new UpstreamCredentials(user, lines[1].substring(9).getBytes(StandardCharsets.UTF_8));
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
     */
    public byte[] password() {
        return password.clone();
    }

    @Override
    public String toString() {
        return "UpstreamCredentials[user=" + user + ", password=(not shown)]";
    }
}
