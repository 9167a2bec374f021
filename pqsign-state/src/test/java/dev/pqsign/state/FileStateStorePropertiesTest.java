package dev.pqsign.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Model-based check: any interleaving of successful updates, updates failing at any write step,
 * update functions that throw, reads and create attempts leaves exactly the modelled state on disk
 * and no temporary file behind.
 */
class FileStateStorePropertiesTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final WriteStep[] BEFORE_RENAME = {
        WriteStep.OPEN_TEMP, WriteStep.WRITE_TEMP, WriteStep.FORCE_TEMP, WriteStep.CLOSE_TEMP, WriteStep.RENAME
    };

    @Property(tries = 60)
    void anySequenceOfOperationsAndFaults_diskEqualsModel(
            @ForAll @Size(min = 1, max = 25) List<@IntRange(min = 0, max = 5) Integer> operations, @ForAll long seed)
            throws IOException {
        Random random = new Random(seed);
        Path dir = Files.createTempDirectory("pqsign-state-prop-");
        try {
            Path file = dir.resolve("key.state");
            byte[] model = randomState(random);
            FileStateStore.create(file, model, TIMEOUT).close();
            for (int op : operations) {
                model = apply(op, file, model, random);
                assertArrayEquals(model, Files.readAllBytes(file), "after operation " + op);
                assertEquals(List.of(), TempFiles.of(file), "after operation " + op);
            }
        } finally {
            deleteTree(dir);
        }
    }

    private static byte[] apply(int op, Path file, byte[] model, Random random) throws IOException {
        byte[] next = randomState(random);
        switch (op) {
            case 0 -> {
                try (FileStateStore store = FileStateStore.open(file, TIMEOUT)) {
                    assertArrayEquals(next, store.update(cur -> {
                        assertArrayEquals(model, cur);
                        return next;
                    }));
                }
                return next;
            }
            case 1 -> {
                WriteStep step = BEFORE_RENAME[random.nextInt(BEFORE_RENAME.length)];
                try (FileStateStore store = FileStateStore.open(file, TIMEOUT, new FaultyFileOps(step))) {
                    assertEquals(
                            step,
                            assertThrows(DurableWriteException.class, () -> store.update(cur -> next))
                                    .step());
                }
                return model;
            }
            case 2 -> {
                try (FileStateStore store =
                        FileStateStore.open(file, TIMEOUT, new FaultyFileOps(WriteStep.FORCE_DIRECTORY))) {
                    assertThrows(DurableWriteException.class, () -> store.update(cur -> next));
                }
                return next;
            }
            case 3 -> {
                try (FileStateStore store = FileStateStore.open(file, TIMEOUT)) {
                    assertThrows(
                            IllegalStateException.class,
                            () -> store.update(cur -> {
                                throw new IllegalStateException("rejected by the key layer");
                            }));
                }
                return model;
            }
            case 4 -> {
                try (FileStateStore store = FileStateStore.open(file, TIMEOUT)) {
                    assertArrayEquals(model, store.read());
                }
                return model;
            }
            case 5 -> {
                try (FileStateStore store = FileStateStore.open(file, TIMEOUT)) {
                    assertThrows(FileAlreadyExistsException.class, () -> store.create(next));
                }
                return model;
            }
            default -> throw new IllegalArgumentException("operation " + op);
        }
    }

    private static byte[] randomState(Random random) {
        byte[] b = new byte[1 + random.nextInt(300)];
        random.nextBytes(b);
        return b;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
