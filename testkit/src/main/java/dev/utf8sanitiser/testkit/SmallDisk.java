package dev.utf8sanitiser.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file system of a fixed, small size (a tmpfs mounted on a directory; root only), so that a test
 * can fill a broker's log directory and see what a full disk does: {@link #fill} writes a filler
 * file until the file system refuses more, {@link #free} deletes it, {@link #close} unmounts.
 */
public final class SmallDisk implements AutoCloseable {
    private static final String FILLER = "utf8-sanitiser-filler";

    private final Path mountPoint;
    private boolean mounted; // guarded by this

    private SmallDisk(Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    /** Whether this machine lets the tests mount a tmpfs (Linux, root). */
    public static boolean available() {
        if (!HostCommand.onLinux()) {
            return false;
        }
        try {
            Path probe = Files.createTempDirectory("small-disk-probe");
            try (SmallDisk disk = mount(probe, 1)) {
                return disk.mounted;
            } finally {
                Files.deleteIfExists(probe);
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Mounts a tmpfs of {@code megabytes} on {@code mountPoint}, which is made if missing. */
    public static SmallDisk mount(Path mountPoint, int megabytes) {
        try {
            Files.createDirectories(mountPoint);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        HostCommand.run("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m", "tmpfs", mountPoint.toString());
        SmallDisk disk = new SmallDisk(mountPoint);
        disk.mounted = true;
        return disk;
    }

    /** Writes zeros to a filler file until the file system is full; returns the bytes written. */
    public synchronized long fill() {
        byte[] chunk = new byte[64 * 1024];
        long written = 0;
        try (OutputStream out = Files.newOutputStream(mountPoint.resolve(FILLER))) {
            while (true) {
                out.write(chunk);
                written += chunk.length;
            }
        } catch (IOException e) {
            // "No space left on device": full, which was the point.
            return written;
        }
    }

    /** Deletes the filler file. */
    public synchronized void free() {
        try {
            Files.deleteIfExists(mountPoint.resolve(FILLER));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Unmounts; what was on the disk is gone. Idempotent. */
    @Override
    public synchronized void close() {
        if (mounted) {
            mounted = false;
            HostCommand.run("umount", "-l", mountPoint.toString());
        }
    }
}
