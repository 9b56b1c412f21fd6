package dev.utf8sanitiser.processor.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8ErrorListener;
import dev.utf8sanitiser.core.Utf8StreamValidator;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code check}: strict UTF-8 validation of files or stdin, in constant memory (CLI.md). */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {
            "Validate each input as strict UTF-8 (Unicode Table 3-7) without loading it whole.",
            "Prints nothing for a well-formed input; for an ill-formed one, a line per reported error:",
            "  NAME:OFFSET:LENGTH: RULE description",
            "Exit 0 when every input is well-formed, 1 when some input is ill-formed,"
                    + " 2 on a usage error or an input that cannot be read."
        })
final class CheckCommand implements Callable<Integer> {
    private static final int BUFFER = 1 << 16;
    private static final JsonFactory JSON = new JsonFactory();

    @Option(names = "--all", description = "Report every maximal ill-formed subpart, in order, not only the first.")
    boolean all;

    @Option(
            names = "--json",
            description = "One JSON object per input and line:"
                    + " {\"input\",\"wellFormed\",\"bytes\",\"errors\":[{\"offset\",\"length\",\"rule\"}]}.")
    boolean json;

    @Parameters(paramLabel = "FILE", description = "Files to check; - or none for standard input.")
    List<String> files = new ArrayList<>();

    private final Io io;

    CheckCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() throws IOException {
        List<String> names = files.isEmpty() ? List.of(Input.STDIN) : files;
        int exit = ExitCode.OK;
        for (String name : names) {
            Input input = new Input(name);
            try {
                if (!check(input)) {
                    exit = Math.max(exit, ExitCode.ILL_FORMED);
                }
            } catch (UnreadableInputException e) {
                io.err().println("utf8-sanitiser: " + e.getMessage());
                exit = ExitCode.USAGE_OR_UNREADABLE;
            }
        }
        io.out().flush();
        return exit;
    }

    /** Checks one input and prints its report; true when it is well-formed. */
    private boolean check(Input input) throws UnreadableInputException, IOException {
        try (ErrorSpool spool = new ErrorSpool()) {
            Utf8StreamValidator validator = new Utf8StreamValidator(new Utf8ErrorListener() {
                private boolean reported;

                @Override
                public void onError(Utf8Error error) {
                    if (all || !reported) {
                        reported = true;
                        if (json) {
                            spool.onError(error);
                        } else {
                            printText(input, error);
                        }
                    }
                }
            });
            long bytes = validate(input, validator);
            if (json) {
                printJson(input, validator.errorCount() == 0, bytes, spool);
            }
            return !validator.hasError();
        }
    }

    /** Streams the input through the validator; returns its size in bytes. */
    private long validate(Input input, Utf8StreamValidator validator) throws UnreadableInputException {
        InputStream in = input.open(io);
        Progress progress = Progress.forInput(io, input);
        byte[] buffer = new byte[BUFFER];
        long total = 0;
        try {
            for (int n; (n = in.read(buffer)) != -1; ) {
                // Without --all only the first error matters: after it, just count the bytes.
                if (all || !validator.hasError()) {
                    validator.update(buffer, 0, n);
                }
                total += n;
                if (progress != null) {
                    progress.update(total);
                }
            }
            if (all || !validator.hasError()) {
                validator.finish();
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

    private void printText(Input input, Utf8Error error) {
        String line = input.name() + ":" + error.offset() + ":" + error.length() + ": " + error.rule() + " "
                + error.rule().description() + "\n";
        try {
            io.out().write(line.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
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
            spool.forEach(error -> {
                try {
                    g.writeStartObject();
                    g.writeNumberField("offset", error.offset());
                    g.writeNumberField("length", error.length());
                    g.writeStringField("rule", error.rule().name());
                    g.writeEndObject();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            g.writeEndArray();
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
