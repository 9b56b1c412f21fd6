package dev.utf8sanitiser.core.corrected;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Corrected UTF-8, as its proposal defines it (docs/corrected-utf8.md): "almost the same as UTF-8"
 * with three changes: "overlength encodings become impossible instead of just forbidden; the C1
 * controls and the Unicode surrogate characters are not encoded; and the artifical upper limit on
 * the code space is removed."
 *
 * <p>The proposal's table ("Byte and codepoint values are shown in hexadecimal, offsets in decimal"):
 *
 * <pre>
 * Byte Sequence Range                    | Offset     | Codepoint Range
 * 00 … 7F                                | 0          | 0000 0000 … 0000 007F
 * C0 80 … DF BF                          | 160        | 0000 00A0 … 0000 089F
 * E0 80 80 … EC BD 9F                    | 2 208      | 0000 08A0 … 0000 D7FF
 * EC BD A0 … EF BF BF                    | 4 256      | 0000 E000 … 0001 109F
 * F0 80 80 80 … F7 BF BF BF              | 69 792     | 0001 10A0 … 0021 109F
 * F8 80 80 80 80 … FB BF BF BF BF        | 2 166 944  | 0021 10A0 … 0421 109F
 * FC 80 80 80 80 80 … FD BF BF BF BF BF  | 69 275 808 | 0421 10A0 … 8421 109F
 * </pre>
 *
 * <p>Every sequence of 2 to 6 bytes encodes its payload plus the offset of its row, so every
 * complete sequence is the unique encoding of one code point: {@code C0 AF} is U+00CF, never
 * U+002F. Code points run up to U+8421109F, beyond a Java {@code int}, so they are {@code long}s.
 * Lead bytes FE and FF start a sequence "reserved for future use"; see {@link #errors} for its
 * extent.
 *
 * <p>The codec, in three layers:
 *
 * <ul>
 *   <li>code points and Corrected UTF-8: {@link #encode(long...)}, {@link #decode(byte[])};
 *   <li>checking Corrected UTF-8: {@link #isWellFormed}, {@link #firstError}, {@link #errors};
 *   <li>transcoding from and to standard UTF-8, bytes in and bytes out: {@link #fromUtf8}, {@link
 *       #toUtf8}, and {@link TranscodingOutputStream} for input of any size.
 * </ul>
 *
 * <p>What cannot cross: a C1 control cannot be encoded (the proposal suggests mapping them to private
 * use first, which is the caller's choice, not the codec's); a code point above U+10FFFF cannot be
 * written as standard UTF-8; a reserved sequence has no code point at all. Each stops the
 * transcoding with a {@link CorrectedUtf8Exception} that names the offset and the {@link
 * CorrectedRule}.
 *
 * <p>U+0000 is encoded and decoded like any code point, although the proposal says it "MUST NOT appear
 * in a Corrected UTF-8 document except as part of the magic number": the table encodes it as
 * {@code 00} and the magic number contains it, so the codec must; keeping it out of documents is
 * the job of the content rule {@code NUL}.
 */
public final class CorrectedUtf8 {
    private CorrectedUtf8() {}

    /** The highest code point Corrected UTF-8 encodes: {@code FD BF BF BF BF BF}, U+8421109F. */
    public static final long MAX_CODE_POINT = CorrectedSequence.MAX_CODE_POINT;

    /**
     * {@code EF B7 9D ED B2 AE 00 0A}: "the Corrected encoding of the four-codepoint sequence
     * U+10E7D U+ED4E U+0000 U+000A" (the proposal). As standard UTF-8 it is ill-formed (ED B2 is a
     * surrogate), so it cannot be mistaken for standard UTF-8 text.
     */
    static final byte[] MAGIC_NUMBER = {
        (byte) 0xEF, (byte) 0xB7, (byte) 0x9D, (byte) 0xED, (byte) 0xB2, (byte) 0xAE, 0x00, 0x0A
    };

    // ---- code points ----

    /**
     * Whether Corrected UTF-8 encodes {@code codePoint}: U+0000..U+8421109F except the C1 controls
     * U+0080..U+009F and the surrogates U+D800..U+DFFF ("Not encoding C1 controls or surrogates").
     */
    public static boolean isEncodable(long codePoint) {
        return CorrectedSequence.isEncodable(codePoint);
    }

    /**
     * The length in bytes, 1 to 6, of the encoding of {@code codePoint}: its row of the table.
     *
     * @throws IllegalArgumentException when it is not {@linkplain #isEncodable encodable}
     */
    public static int encodedLength(long codePoint) {
        requireEncodable(codePoint);
        return CorrectedSequence.encodedLength(codePoint);
    }

    /**
     * Writes the encoding of {@code codePoint} at {@code destination[offset]} and returns its length.
     *
     * @throws IllegalArgumentException when it is not {@linkplain #isEncodable encodable}
     * @throws IndexOutOfBoundsException when the encoding does not fit
     */
    public static int encode(long codePoint, byte[] destination, int offset) {
        int length = encodedLength(codePoint);
        Objects.checkFromIndexSize(offset, length, destination.length);
        return CorrectedSequence.encode(codePoint, destination, offset);
    }

    /**
     * The encoding of the code points, in order. Like {@link Character#toChars(int)}, a code point
     * the encoding cannot represent is the caller's error, not the data's.
     *
     * @throws IllegalArgumentException naming the index of the first code point that is not
     *     {@linkplain #isEncodable encodable}
     */
    public static byte[] encode(long... codePoints) {
        int length = 0;
        for (int i = 0; i < codePoints.length; i++) {
            if (!isEncodable(codePoints[i])) {
                throw new IllegalArgumentException("code point " + i + " not encodable: " + hex(codePoints[i]));
            }
            length = Math.addExact(length, CorrectedSequence.encodedLength(codePoints[i]));
        }
        byte[] bytes = new byte[length];
        int written = 0;
        for (long codePoint : codePoints) {
            written += CorrectedSequence.encode(codePoint, bytes, written);
        }
        return bytes;
    }

    /**
     * The code points of Corrected UTF-8 bytes, U+0000..U+8421109F. A magic number is decoded like
     * any text.
     *
     * @throws CorrectedUtf8Exception at the first stray continuation byte, truncated sequence or
     *     reserved sequence
     */
    public static long[] decode(byte[] bytes) throws CorrectedUtf8Exception {
        long[] codePoints = new long[bytes.length];
        int count = 0;
        int i = 0;
        while (i < bytes.length) {
            long sequence = CorrectedSequence.at(bytes, i, bytes.length);
            if (!CorrectedSequence.isComplete(sequence)) {
                throw new CorrectedUtf8Exception(i, CorrectedSequence.rule(sequence));
            }
            codePoints[count++] = CorrectedSequence.codePoint(sequence);
            i += CorrectedSequence.length(sequence);
        }
        return Arrays.copyOf(codePoints, count);
    }

    // ---- checking ----

    /**
     * Whether the bytes are a sequence of complete Corrected UTF-8 sequences of 1 to 6 bytes, each
     * decodable to a code point. A reserved sequence is not ill-formed (see {@link
     * CorrectedRule#RESERVED_SEQUENCE}), but this version cannot decode it, so it makes this false.
     */
    public static boolean isWellFormed(byte[] bytes) {
        return firstErrorIndex(bytes, 0) == bytes.length;
    }

    /** The first place where no code point can be decoded, or empty. */
    public static Optional<CorrectedError> firstError(byte[] bytes) {
        int i = firstErrorIndex(bytes, 0);
        return i == bytes.length ? Optional.empty() : Optional.of(errorAt(bytes, i));
    }

    /**
     * Every place where no code point can be decoded, in order; empty for well-formed bytes. A stray
     * continuation byte is one error, like a maximal subpart of standard UTF-8 (Unicode §3.9, D93b);
     * a truncated sequence covers its lead byte and the continuation bytes present; a reserved
     * sequence covers the proposal's extent "until the next recognized lead byte": the FE or FF byte and
     * every following byte 80..BF, FE or FF, up to a byte 00..7F or C0..FD or the end.
     */
    public static List<CorrectedError> errors(byte[] bytes) {
        List<CorrectedError> errors = new ArrayList<>();
        int i = 0;
        while ((i = firstErrorIndex(bytes, i)) < bytes.length) {
            CorrectedError error = errorAt(bytes, i);
            errors.add(error);
            i += error.length();
        }
        return errors;
    }

    /** The index of the first sequence at or after {@code from} that has no code point, or the end. */
    private static int firstErrorIndex(byte[] bytes, int from) {
        int i = from;
        while (i < bytes.length) {
            if (bytes[i] >= 0) {
                i++;
                continue;
            }
            long sequence = CorrectedSequence.at(bytes, i, bytes.length);
            if (!CorrectedSequence.isComplete(sequence)) {
                return i;
            }
            i += CorrectedSequence.length(sequence);
        }
        return i;
    }

    private static CorrectedError errorAt(byte[] bytes, int index) {
        long sequence = CorrectedSequence.at(bytes, index, bytes.length);
        CorrectedRule rule = CorrectedSequence.rule(sequence);
        int length = rule == CorrectedRule.RESERVED_SEQUENCE
                ? CorrectedSequence.reservedEnd(bytes, index, bytes.length) - index
                : CorrectedSequence.length(sequence);
        return new CorrectedError(index, length, rule);
    }

    // ---- transcoding ----

    /**
     * Encodes standard UTF-8 as Corrected UTF-8, with the magic number first when asked. Offsets
     * point into {@code utf8}.
     *
     * @throws CorrectedUtf8Exception at the first ill-formed UTF-8, with the rule {@link
     *     dev.utf8sanitiser.core.Utf8Validator} gives it (see {@link CorrectedRule#of}), or C1
     *     control ({@link CorrectedRule#C1_CONTROL})
     */
    public static byte[] fromUtf8(byte[] utf8, MagicNumber magicNumber) throws CorrectedUtf8Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream(utf8.length + MAGIC_NUMBER.length);
        return transcode(utf8, sink, TranscodingOutputStream.encoding(sink, magicNumber));
    }

    /**
     * Decodes Corrected UTF-8 to standard UTF-8, dropping a leading magic number when asked. Offsets
     * point into {@code corrected}, a dropped magic number included.
     *
     * @throws CorrectedUtf8Exception at the first stray continuation byte, truncated sequence,
     *     reserved sequence, or code point above U+10FFFF ({@link CorrectedRule#OUT_OF_RANGE})
     */
    public static byte[] toUtf8(byte[] corrected, MagicNumber magicNumber) throws CorrectedUtf8Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream(corrected.length + corrected.length / 2);
        return transcode(corrected, sink, TranscodingOutputStream.decoding(sink, magicNumber));
    }

    /** One definition of transcoding: the one-shot form is the streaming form fed once. */
    private static byte[] transcode(byte[] input, ByteArrayOutputStream sink, TranscodingOutputStream transcoding)
            throws CorrectedUtf8Exception {
        try (transcoding) {
            transcoding.write(input);
        } catch (CorrectedUtf8Exception e) {
            throw e;
        } catch (IOException e) {
            throw new AssertionError("a ByteArrayOutputStream does not fail", e);
        }
        return sink.toByteArray();
    }

    // ---- the magic number ----

    /** A copy of the magic number {@code EF B7 9D ED B2 AE 00 0A}. */
    public static byte[] magicNumber() {
        return MAGIC_NUMBER.clone();
    }

    /** Whether the bytes start with the magic number, as a file in Corrected UTF-8 "SHOULD". */
    public static boolean startsWithMagicNumber(byte[] bytes) {
        return bytes.length >= MAGIC_NUMBER.length
                && Arrays.equals(bytes, 0, MAGIC_NUMBER.length, MAGIC_NUMBER, 0, MAGIC_NUMBER.length);
    }

    private static void requireEncodable(long codePoint) {
        if (!isEncodable(codePoint)) {
            throw new IllegalArgumentException("not encodable in Corrected UTF-8: " + hex(codePoint));
        }
    }

    private static String hex(long codePoint) {
        return codePoint < 0 ? Long.toString(codePoint) : String.format("U+%04X", codePoint);
    }
}
