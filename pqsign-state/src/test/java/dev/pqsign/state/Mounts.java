package dev.pqsign.state;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Real kernel mounts (a small tmpfs, a read-only bind mount) for the tests of faults that only a real
 * file system produces; register with {@code @RegisterExtension final Mounts mounts = new Mounts();}.
 * A test that cannot mount (not root, no CAP_SYS_ADMIN) is skipped rather than failed, and whatever a
 * test mounted is unmounted after it, newest first, before its temporary directory is deleted.
 * Shared through this module's test-jar with pqsign-xmss.
 */
public final class Mounts implements AfterEachCallback {
    private final List<Path> mounted = new ArrayList<>();

    /**
     * Runs {@code mount ARGS... MOUNTPOINT}; aborts the calling test (skipped, not failed) if that is
     * not permitted here.
     */
    public void mount(Path mountPoint, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("mount"));
        cmd.addAll(Arrays.asList(args));
        cmd.add(mountPoint.toString());
        boolean ok = run(cmd.toArray(String[]::new));
        assumeTrue(ok, "cannot mount here (not root, or no CAP_SYS_ADMIN): " + cmd);
        mounted.add(mountPoint);
    }

    /**
     * Unmounts {@code mountPoint} now, for a test that checks what happens once the fault is gone,
     * and drops one record of it from the clean-up after the test.
     */
    public void unmount(Path mountPoint) throws IOException, InterruptedException {
        if (!run("umount", mountPoint.toString())) {
            // Busy (an open descriptor of a failed test): detach it so the temp dir can go.
            run("umount", "-l", mountPoint.toString());
        }
        mounted.remove(mountPoint);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        for (int i = mounted.size() - 1; i >= 0; i--) {
            unmount(mounted.get(i));
        }
    }

    private static boolean run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return false;
        }
        return p.exitValue() == 0;
    }
}
