package dev.utf8sanitiser.app.cli;

import dev.utf8sanitiser.core.corrected.CorrectedUtf8Exception;
import dev.utf8sanitiser.core.corrected.MagicNumber;
import dev.utf8sanitiser.core.corrected.TranscodingOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code corrected encode|decode}: transcoding to and from Corrected UTF-8 (docs/cli.md, docs/corrected-utf8.md). */
@Command(
        name = "corrected",
        mixinStandardHelpOptions = true,
        description = "Transcode between standard UTF-8 and Corrected UTF-8 (see docs/corrected-utf8.md).",
        subcommands = {CorrectedCommand.Encode.class, CorrectedCommand.Decode.class})
final class CorrectedCommand {
    private CorrectedCommand() {}

    /** Shared by both directions: stream stdin or a file through a transcoder to stdout. */
    abstract static class Transcode implements Callable<Integer> {
        @Parameters(
                paramLabel = "FILE",
                arity = "0..1",
                defaultValue = Input.STDIN,
                description = "The input; - or none for standard input.")
        String file;

        final Io io;

        Transcode(Io io) {
            this.io = io;
        }

        abstract TranscodingOutputStream transcoder();

        @Override
        public Integer call() throws IOException {
            Input input = new Input(file);
            TranscodingOutputStream out = transcoder();
            try {
                InputStream in = input.open(io);
                try {
                    byte[] buffer = new byte[1 << 16];
                    for (int n; (n = input.read(in, buffer)) != -1; ) {
                        out.write(buffer, 0, n);
                    }
                    out.finish();
                } finally {
                    if (!input.isStdin()) {
                        in.close();
                    }
                }
            } catch (CorrectedUtf8Exception e) {
                // Everything before the offending offset has been written.
                io.out().flush();
                io.err().println(input.name() + ":" + e.getMessage());
                return ExitCode.ILL_FORMED;
            } catch (UnreadableInputException e) {
                io.out().flush();
                io.err().println("utf8-sanitiser: " + e.getMessage());
                return ExitCode.USAGE_OR_UNREADABLE;
            }
            io.out().flush();
            return ExitCode.OK;
        }
    }

    @Command(
            name = "encode",
            mixinStandardHelpOptions = true,
            description = {
                "Standard UTF-8 to Corrected UTF-8. Ill-formed input, C1 controls (U+0080..U+009F) and"
                        + " surrogates cannot be encoded: exit 1 with NAME:OFFSET: RULE description on stderr."
            })
    static final class Encode extends Transcode {
        @Option(names = "--magic", description = "Start the output with the magic number EF B7 9D ED B2 AE 00 0A.")
        boolean magic;

        Encode(Io io) {
            super(io);
        }

        @Override
        TranscodingOutputStream transcoder() {
            return TranscodingOutputStream.encoding(io.out(), magic ? MagicNumber.LEADING : MagicNumber.NONE);
        }
    }

    @Command(
            name = "decode",
            mixinStandardHelpOptions = true,
            description = {
                "Corrected UTF-8 to standard UTF-8; a leading magic number is dropped. Reserved (FE, FF)"
                        + " or ill-formed sequences and code points above U+10FFFF cannot be decoded: exit 1"
                        + " with NAME:OFFSET: RULE description on stderr."
            })
    static final class Decode extends Transcode {
        Decode(Io io) {
            super(io);
        }

        @Override
        TranscodingOutputStream transcoder() {
            return TranscodingOutputStream.decoding(io.out(), MagicNumber.LEADING);
        }
    }
}
