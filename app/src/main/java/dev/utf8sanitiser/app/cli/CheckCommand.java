package dev.utf8sanitiser.app.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.utf8sanitiser.core.Utf8StreamValidator;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.core.content.ContentRules;
import dev.utf8sanitiser.core.content.ContentScan;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code check}: strict UTF-8 validation of files or stdin, in constant memory (docs/cli.md). */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {
            "Validate each input as strict UTF-8 (Unicode Table 3-7) without loading it whole.",
            "Prints nothing for a well-formed input; for an ill-formed one, a line per reported error:",
            "  NAME:OFFSET:LENGTH: RULE description",
            "Exit 0 when every input is well-formed, 1 when some input is ill-formed (or, with"
                    + " --content-rules, has a finding), 2 on a usage error or an input that cannot be read."
        })
final class CheckCommand implements Callable<Integer> {
    static final int BUFFER = 1 << 16;
    private static final JsonFactory JSON = new JsonFactory();
    /** The rules {@code --content-rules} checks when given no list: all but CR and NOT_NORMALISED. */
    static final String DEFAULT_CONTENT_RULES = "NUL:reject,C0_CONTROL:reject,C1_CONTROL:reject,"
            + "NONCHARACTER:reject,BYTE_ORDER_MARK:reject,PRIVATE_USE:reject,LINE_SEPARATOR:reject";

    @Option(names = "--all", description = "Report every maximal ill-formed subpart, in order, not only the first.")
    boolean all;

    @Option(
            names = "--json",
            description = "One JSON object per input and line:"
                    + " {\"input\",\"wellFormed\",\"bytes\",\"errors\":[{\"offset\",\"length\",\"rule\"}]},"
                    + " with --all also \"errorCount\" and \"truncated\" (see --max-errors).")
    boolean json;

    @Option(
            names = "--max-errors",
            paramLabel = "N",
            defaultValue = "1000000",
            description = "With --all --json: list at most N errors per input (default ${DEFAULT-VALUE});"
                    + " \"errorCount\" has the exact number and \"truncated\" says whether the list was cut.")
    long maxErrors;

    @Option(
            names = "--content-rules",
            description = "Also report well-formed but unwelcome text (docs/content-rules.md): by default"
                    + " every content rule but CR and NOT_NORMALISED.")
    boolean contentRules;

    @Option(
            names = "--rules",
            paramLabel = "RULES",
            description = "The content rules to report, as RULE:action pairs (implies --content-rules), e.g."
                    + " NUL:reject,CR:reject,NOT_NORMALISED:reject; every rule not set to allow is reported.")
    String rules;

    @Parameters(paramLabel = "FILE", description = "Files to check; - or none for standard input.")
    List<String> files = new ArrayList<>();

    private final Io io;
    /** Whether some input had a problem; set before the problem is printed. */
    private boolean problemFound;

    CheckCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() throws IOException {
        if (maxErrors < 0) {
            io.err().println("utf8-sanitiser: check: --max-errors: must not be negative: " + maxErrors);
            return ExitCode.USAGE_OR_UNREADABLE;
        }
        ContentPolicy content = null;
        if (contentRules || rules != null) {
            try {
                content = ContentPolicy.of(ContentRules.parse(rules != null ? rules : DEFAULT_CONTENT_RULES));
            } catch (IllegalArgumentException e) {
                io.err().println("utf8-sanitiser: check: --rules: " + e.getMessage());
                return ExitCode.USAGE_OR_UNREADABLE;
            }
        }
        List<String> names = files.isEmpty() ? List.of(Input.STDIN) : files;
        int exit = ExitCode.OK;
        try {
            for (String name : names) {
                Input input = new Input(name);
                try {
                    if (!check(input, content)) {
                        exit = Math.max(exit, ExitCode.ILL_FORMED);
                    }
                } catch (UnreadableInputException e) {
                    io.err().println("utf8-sanitiser: " + e.getMessage());
                    exit = ExitCode.USAGE_OR_UNREADABLE;
                }
            }
            io.out().flush();
        } catch (OutputClosedException | UncheckedIOException e) {
            if (!OutputClosedException.isCause(e)) {
                throw e;
            }
            // The reader has gone (check --all | head): stop reading, and exit with what was found
            // by then.
            return problemFound ? Math.max(exit, ExitCode.ILL_FORMED) : exit;
        }
        return exit;
    }

    /** Checks one input and prints its report; true when it has no problem. */
    private boolean check(Input input, ContentPolicy content) throws UnreadableInputException, IOException {
        try (ErrorSpool spool = new ErrorSpool(all ? maxErrors : Long.MAX_VALUE)) {
            Report report = new Report(input, spool);
            // Each batch is in offset order; the report merges the two.
            ProblemBatch utf8 = new ProblemBatch();
            ProblemBatch found = new ProblemBatch();
            Utf8StreamValidator validator = new Utf8StreamValidator(error ->
                    utf8.add(error.offset(), error.length(), error.rule().ordinal()));
            ContentScan scan = content == null ? null : new ContentScan(content);
            ContentScan.PieceSink pieces = (start, piece) -> {
                validator.update(piece);
                scan.report(
                        start,
                        piece,
                        (offset, length, rule, action) ->
                                found.add(start + offset, length, Problem.CONTENT + rule.ordinal()));
                report.all(utf8, found);
            };
            long bytes = read(
                    input,
                    (chunk, n) -> {
                        if (scan == null) {
                            validator.update(chunk, 0, n);
                            report.all(utf8, found);
                        } else {
                            scan.update(chunk, 0, n, pieces);
                        }
                    },
                    report);
            if (!report.done()) {
                if (scan != null) {
                    scan.finish(pieces);
                }
                validator.finish();
                report.all(utf8, found);
            }
            if (json) {
                printJson(input, report.utf8Errors == 0, bytes, spool);
            }
            return report.count == 0;
        }
    }

    /** What a chunk of input goes to. */
    private interface ChunkSink {
        void chunk(byte[] bytes, int length);
    }

    /** Streams the input to the sink until the report needs no more; returns its size in bytes. */
    private long read(Input input, ChunkSink sink, Report report) throws UnreadableInputException {
        InputStream in = input.open(io);
        Progress progress = Progress.forInput(io, input);
        byte[] buffer = new byte[BUFFER];
        long total = 0;
        try {
            for (int n; (n = in.read(buffer)) != -1; ) {
                // Without --all only the first problem matters: after it, just count the bytes.
                if (!report.done()) {
                    sink.chunk(buffer, n);
                }
                total += n;
                if (progress != null) {
                    progress.update(total);
                }
            }
        } catch (IOException e) {
            throw input.unreadable(e);
        } finally {
            if (progress != null) {
                progress.clear();
            }
            if (!input.isStdin()) {
                closeQuietly(in);
            }
        }
        return total;
    }

    /** Prints (or spools, for JSON) problems in offset order: all of them, or the first. */
    private final class Report {
        private final Input input;
        private final ErrorSpool spool;
        long count;
        long utf8Errors;

        Report(Input input, ErrorSpool spool) {
            this.input = input;
            this.spool = spool;
        }

        /** Reports two batches found together, merged in offset order, and empties them. */
        void all(ProblemBatch utf8, ProblemBatch found) {
            int u = 0;
            int f = 0;
            while ((u < utf8.size() || f < found.size()) && !done()) {
                if (f == found.size() || (u < utf8.size() && utf8.offset(u) <= found.offset(f))) {
                    one(utf8.offset(u), utf8.length(u), utf8.code(u));
                    u++;
                } else {
                    one(found.offset(f), found.length(f), found.code(f));
                    f++;
                }
            }
            utf8.clear();
            found.clear();
        }

        private void one(long offset, int length, int code) {
            count++;
            problemFound = true;
            if (code < Problem.CONTENT) {
                utf8Errors++;
            }
            if (json) {
                spool.add(offset, length, code);
            } else {
                printText(input, new Problem(offset, length, code));
            }
        }

        boolean done() {
            return !all && count > 0;
        }
    }

    private void printText(Input input, Problem problem) {
        String line = input.name() + ":" + problem.offset() + ":" + problem.length() + ": " + problem.rule() + " "
                + problem.description() + "\n";
        try {
            io.out().write(line.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void printJson(Input input, boolean wellFormed, long bytes, ErrorSpool spool) throws IOException {
        OutputStream out = io.out();
        try (JsonGenerator g = JSON.createGenerator(out).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)) {
            g.writeStartObject();
            g.writeStringField("input", input.name());
            g.writeBooleanField("wellFormed", wellFormed);
            g.writeNumberField("bytes", bytes);
            g.writeArrayFieldStart("errors");
            spool.forEach(problem -> {
                try {
                    g.writeStartObject();
                    g.writeNumberField("offset", problem.offset());
                    g.writeNumberField("length", problem.length());
                    g.writeStringField("rule", problem.rule());
                    g.writeEndObject();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            g.writeEndArray();
            if (all) {
                // Added after the original four fields, which keep their order and meaning.
                g.writeNumberField("errorCount", spool.count());
                g.writeBooleanField("truncated", spool.truncated());
            }
            g.writeEndObject();
        }
        out.write('\n');
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // Nothing was lost: the input was read to its end or has already failed.
        }
    }
}
