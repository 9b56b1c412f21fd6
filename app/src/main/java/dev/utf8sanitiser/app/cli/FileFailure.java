package dev.utf8sanitiser.app.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * The reason of a failed file operation in words. The JDK's {@link FileSystemException}s carry the
 * file's path as their whole message ({@code NoSuchFileException: /tmp/x}), which on its own tells
 * a user nothing.
 */
final class FileFailure {
    private FileFailure() {}

    /** Why {@code e} happened: "no such file", "permission denied"..., or its own message. */
    static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "already exists";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.replace('\n', ' ');
    }

    /** {@code e} on one line: the file it names, if any, and the reason. */
    static String describe(IOException e) {
        if (e instanceof FileSystemException f && f.getFile() != null) {
            String other = f.getOtherFile() == null ? "" : " -> " + f.getOtherFile();
            return f.getFile() + other + ": " + reason(e);
        }
        return reason(e);
    }
}
