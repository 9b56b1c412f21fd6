package dev.utf8sanitiser.app.cli;

/** The exit codes of docs/cli.md (a contract). */
final class ExitCode {
    /** Success, and every input well-formed. */
    static final int OK = 0;
    /** Some input ill-formed; for {@code run}, stopped on a fatal error. */
    static final int ILL_FORMED = 1;
    /** Usage error, or an input that cannot be read. */
    static final int USAGE_OR_UNREADABLE = 2;
    /**
     * {@code dlq replay} stopped by Ctrl-C or SIGTERM after committing what it had sent: 128 + SIGINT,
     * what a shell reports for Ctrl-C, so that a script does not take a partial replay for a whole one.
     */
    static final int INTERRUPTED = 130;

    private ExitCode() {}
}
