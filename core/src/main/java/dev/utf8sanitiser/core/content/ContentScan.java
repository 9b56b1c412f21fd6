package dev.utf8sanitiser.core.content;

import dev.utf8sanitiser.core.IllFormedListener;
import dev.utf8sanitiser.core.Rule;
import dev.utf8sanitiser.core.Utf8Validator;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Content rules over a stream, in constant memory: the input is cut into pieces at line feeds (LF
 * is ASCII, so no character is cut, and a normalisation boundary, so no normalisation span is), or,
 * when a line outgrows {@link #MAX_PIECE}, at the last normalisation boundary before its end, so
 * that a base letter and its combining marks stay together. Each piece goes to {@link
 * ContentPolicy}, an ill-formed one stretch by stretch between its errors. Every decision (where a
 * character starts, where normalisation may cut, whether U+FEFF is a byte order mark) is the core's,
 * so a host that streams text (the command line's {@code check}) decides nothing itself.
 */
public final class ContentScan {
    /** The longest piece, unless no cut keeps the findings: a line longer than this is cut. */
    public static final int MAX_PIECE = 1 << 20;

    private final ContentPolicy policy;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private long pendingStart; // absolute offset of the first pending byte

    public ContentScan(ContentPolicy policy) {
        this.policy = policy;
    }

    /**
     * Takes more input; hands on the pieces it completes, each as (absolute offset, bytes), in
     * order.
     */
    public void update(byte[] bytes, int offset, int length, PieceSink sink) {
        int end = offset + length;
        int lastLf = -1;
        for (int i = end - 1; i >= offset; i--) {
            if (bytes[i] == '\n') {
                lastLf = i;
                break;
            }
        }
        if (lastLf >= 0) {
            pending.write(bytes, offset, lastLf + 1 - offset);
            flushPending(pending.size(), sink);
            pending.write(bytes, lastLf + 1, end - lastLf - 1);
        } else {
            pending.write(bytes, offset, length);
        }
        if (pending.size() > MAX_PIECE) {
            byte[] all = pending.toByteArray();
            int cut = lastBoundary(all);
            flushPending(cut > 0 ? cut : lastCharacterStart(all), sink);
        }
    }

    /**
     * The last place in {@code bytes} where a cut changes no finding: before a whole character the
     * policy has a boundary before ({@link ContentPolicy#isBoundaryBefore}), or before an ill-formed
     * sequence, where a stretch ends anyway. The end itself will not do: what follows is unknown.
     * 0 when there is none, which takes a megabyte without a normalisation boundary (a megabyte of
     * combining marks, far from stream-safe text, UAX #15 §13); that is cut at a character.
     */
    private int lastBoundary(byte[] bytes) {
        for (int i = bytes.length - 1; i > 0; i--) {
            int b = bytes[i] & 0xFF;
            if (b < 0x80) {
                if (policy.isBoundaryBefore(b)) {
                    return i;
                }
                continue;
            }
            if (b < 0xC0) {
                continue; // a continuation byte
            }
            int length = b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
            if (i + length > bytes.length) {
                continue; // cut short by the end of the buffer: unknown yet
            }
            if (!Utf8Validator.isWellFormed(bytes, i, length)) {
                return i;
            }
            if (policy.isBoundaryBefore(new String(bytes, i, length, StandardCharsets.UTF_8).codePointAt(0))) {
                return i;
            }
        }
        return 0;
    }

    /** The end, less a character that the end may have cut in two. */
    private static int lastCharacterStart(byte[] bytes) {
        int cut = bytes.length;
        for (int back = 0; back < 3 && cut > 0 && (bytes[cut - 1] & 0xC0) == 0x80; back++) {
            cut--; // a trailing continuation byte may belong to a character cut in two
        }
        if (cut > 0 && (bytes[cut - 1] & 0xC0) == 0xC0) {
            cut--; // and so may a trailing lead byte
        }
        return cut;
    }

    /** Ends the input: hands on what is left as the last piece. */
    public void finish(PieceSink sink) {
        flushPending(pending.size(), sink);
    }

    private void flushPending(int length, PieceSink sink) {
        byte[] all = pending.toByteArray();
        byte[] piece = Arrays.copyOf(all, length);
        pending.reset();
        pending.write(all, length, all.length - length);
        if (piece.length > 0) {
            sink.piece(pendingStart, piece);
        }
        pendingStart += length;
    }

    /**
     * The content findings of one piece, with offsets in that piece. Content rules are defined on
     * well-formed text, so an ill-formed piece is checked stretch by stretch between its errors.
     */
    public List<ContentFinding> findings(long pieceStart, byte[] piece) {
        List<ContentFinding> findings = new ArrayList<>();
        report(
                pieceStart,
                piece,
                (offset, length, rule, action) -> findings.add(new ContentFinding(offset, length, rule, action)));
        return findings;
    }

    /**
     * The findings of {@link #findings}, handed to {@code listener} one at a time in the same order,
     * with offsets in the piece: nothing is kept, so a piece of a million findings costs no more
     * memory than a piece of none ({@link ContentPolicy#report}).
     *
     * @return how many findings there were
     */
    public long report(long pieceStart, byte[] piece, ContentPolicy.FindingListener listener) {
        Stretches stretches = new Stretches(pieceStart, piece, listener);
        Utf8Validator.forEachIllFormed(piece, 0, piece.length, stretches);
        stretches.to(piece.length);
        return stretches.count;
    }

    /** Reports the well-formed stretch before each ill-formed subpart, and then the last one. */
    private final class Stretches implements IllFormedListener, ContentPolicy.FindingListener {
        private final long pieceStart;
        private final byte[] piece;
        private final ContentPolicy.FindingListener listener;
        private int at; // where the next stretch starts
        private int from; // where the stretch being reported starts
        long count;

        Stretches(long pieceStart, byte[] piece, ContentPolicy.FindingListener listener) {
            this.pieceStart = pieceStart;
            this.piece = piece;
            this.listener = listener;
        }

        @Override
        public void onIllFormed(long offset, int length, Rule rule) {
            to((int) offset);
            at = (int) offset + length;
        }

        void to(int end) {
            if (at >= end) {
                return;
            }
            from = at;
            count += policy.report(piece, from, end, pieceStart + from == 0, this);
        }

        @Override
        public void finding(int offset, int length, ContentRule rule, ContentAction action) {
            listener.finding(from + offset, length, rule, action);
        }
    }

    /** Receives each piece the scan completes, with its absolute offset in the input. */
    public interface PieceSink {
        void piece(long start, byte[] bytes);
    }
}
