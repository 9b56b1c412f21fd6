package dev.utf8sanitiser.core.content;

import dev.utf8sanitiser.core.Utf8Validator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Content rules and normalisation applied to well-formed UTF-8: a pure function of bytes, so every
 * host (processor, serdes, Connect SMT, command line) gets the same answer. Immutable and
 * thread-safe; build one per configuration and reuse it.
 *
 * <h2>Precondition: well-formed input</h2>
 *
 * {@link #apply(byte[])} takes text that is already well-formed UTF-8 (Unicode Table 3-7): the
 * caller validated it, or replaced its ill-formed subsequences, first. Checking it again would
 * double the cost of the clean path, so it is only asserted (with {@code -ea}, an {@link
 * AssertionError}). Without assertions ill-formed input gets no guarantee beyond this: the call
 * ends normally without reading outside the array; which rules match near ill-formed bytes is
 * unspecified; the rules copy ill-formed bytes through, and normalisation, which decodes the text,
 * turns them into U+FFFD.
 *
 * <h2>Code point rules</h2>
 *
 * One pass over the bytes that decodes only characters that may match: a search, 32 or 8 bytes a
 * step, for the bytes that start the checked sets (those below U+0020; {@code C2} for C1 controls,
 * {@code E2} for U+2028/U+2029, {@code EE EF F0..F4} for private use and noncharacters), whose
 * trail bytes then rule out most neighbours of those sets before anything is decoded. Where nothing
 * matches, nothing is allocated but the result, and the output is the input array. What each
 * action does is in {@link ContentAction}; the findings' offsets are in the input.
 *
 * <ul>
 *   <li>{@code BYTE_ORDER_MARK} matches U+FEFF at input offset 0 only, as docs/content-rules.md says. So
 *       {@code STRIP} is not idempotent on {@code FEFF FEFF}: the second U+FEFF, a ZERO WIDTH
 *       NO-BREAK SPACE in the input, starts the output and is a BOM to whoever reads it next.
 *   <li>{@code CR}: "CRLF" is U+000D immediately followed by U+000A in the input. {@code REPLACE}
 *       drops the CR of a CRLF and turns a lone CR into LF; {@code STRIP} drops every CR. Either
 *       way one finding per CR, of length 1.
 * </ul>
 *
 * <h2>Normalisation and NOT_NORMALISED</h2>
 *
 * Two settings meet here: {@link #normalisation()} ({@code sanitiser.normalisation}: bring text
 * into a form) and the action of {@link ContentRule#NOT_NORMALISED} (what to do with text not in
 * it). Both use one {@link #form()}: the normalisation, or NFC when that is NONE.
 *
 * <table>
 *   <caption>normalisation × NOT_NORMALISED</caption>
 *   <tr><th>normalisation</th><th>NOT_NORMALISED</th><th>text not in the form</th></tr>
 *   <tr><td>NONE</td><td>allow</td><td>left as it is, not checked</td></tr>
 *   <tr><td>NONE</td><td>reject</td><td>rejected (not in NFC)</td></tr>
 *   <tr><td>NONE</td><td>replace</td><td>normalised to NFC</td></tr>
 *   <tr><td>F</td><td>allow or replace</td><td>normalised to F</td></tr>
 *   <tr><td>F</td><td>reject</td><td>rejected (not in F), not normalised</td></tr>
 * </table>
 *
 * Normalising is reported as one {@code NOT_NORMALISED} finding with action {@code REPLACE}, so
 * metrics count normalised records like any other change. Normalisation runs after the code point
 * rules, on their output: stripping can make text non-normalised ({@code e NUL U+0301} with NUL
 * stripped), and no normalisation form ever produces a character that a code point rule matches.
 * The finding spans the input bytes from the first to the last character that normalisation
 * rewrites.
 *
 * <p>Already-normalised text costs little: it is checked in the bytes, not decoded. ASCII is in
 * every form; so is any text whose characters all have quick check Yes and combining class 0 for
 * the form (UAX #15 §9), which the check reads from a bitmap of ICU's data (this covers most text
 * in NFC and NFKC: Latin, Cyrillic, Greek, CJK, precomposed Hangul). Only text with a character
 * that may change (a combining mark, a decomposable or compatibility character) is decoded and
 * goes through ICU's {@code isNormalized}, and only text that fails it is normalised.
 */
public final class ContentPolicy {
    /** U+FFFD REPLACEMENT CHARACTER in UTF-8. */
    private static final byte[] REPLACEMENT_CHARACTER = {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD};

    private static final byte[] LINE_FEED = {'\n'};
    private static final byte[] NOTHING = {};

    /** The length of the sequence a lead byte starts (Table 3-7); 1 for bytes that start none. */
    private static final byte[] SEQUENCE_LENGTH = sequenceLengths();

    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
    private static final long SPACES = 0x2020_2020_2020_2020L;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** After the tables: the constructor reads them. */
    private static final ContentPolicy NONE = new ContentPolicy(ContentRules.none(), Normalisation.NONE);

    private final ContentRules rules;
    private final Normalisation normalisation;
    private final Normalisation form;
    /** The effective NOT_NORMALISED action: ALLOW (no check), REJECT, or REPLACE (normalise). */
    private final ContentAction normalising;
    /** The action of each rule, by ordinal. */
    private final ContentAction[] actions;
    /** By byte: 1 when a character starting with it can match a checked code point rule, else 0. */
    private final byte[] inspect;
    /** Whether some code point rule other than BYTE_ORDER_MARK is checked. */
    private final boolean scans;

    private final boolean privateUse;
    private final boolean noncharacters;
    /**
     * {@link #SPACES} when a rule checks some of U+0000..U+001F, else 0: an 8-byte block {@code w}
     * holds nothing to inspect when {@code ((w - asciiFloor) | w) & HIGH_BITS} is 0, that is when
     * every byte is ASCII and, with the floor, at least U+0020.
     */
    private final long asciiFloor;

    private ContentPolicy(ContentRules rules, Normalisation normalisation) {
        this.rules = rules;
        this.normalisation = normalisation;
        this.form = normalisation == Normalisation.NONE ? Normalisation.NFC : normalisation;
        ContentAction notNormalised = rules.actionFor(ContentRule.NOT_NORMALISED);
        this.normalising = notNormalised == ContentAction.REJECT
                ? ContentAction.REJECT
                : notNormalised == ContentAction.REPLACE || normalisation != Normalisation.NONE
                        ? ContentAction.REPLACE
                        : ContentAction.ALLOW;
        this.actions = new ContentAction[ContentRule.values().length];
        for (ContentRule rule : ContentRule.values()) {
            actions[rule.ordinal()] = rules.actionFor(rule);
        }
        boolean[] lead = new boolean[256];
        for (int b = 0; b < 0x20; b++) {
            ContentRule rule = codePointRule(b);
            lead[b] = rule != null && checks(rule);
        }
        lead[0xC2] = checks(ContentRule.C1_CONTROL); // U+0080..U+00BF
        lead[0xE2] = checks(ContentRule.LINE_SEPARATOR); // U+2000..U+2FFF
        lead[0xEE] = checks(ContentRule.PRIVATE_USE); // U+E000..U+EFFF
        lead[0xEF] = checks(ContentRule.PRIVATE_USE) || checks(ContentRule.NONCHARACTER); // U+F000..U+FFFF
        for (int b = 0xF0; b <= 0xF4; b++) {
            // U+xxFFFE/F in every supplementary plane; planes 15 and 16 (F3 B0.., F4) are private use
            lead[b] = checks(ContentRule.NONCHARACTER) || (b >= 0xF3 && checks(ContentRule.PRIVATE_USE));
        }
        this.inspect = new byte[256];
        boolean scans = false;
        for (int b = 0; b < 256; b++) {
            inspect[b] = (byte) (lead[b] ? 1 : 0);
            scans |= lead[b];
        }
        this.scans = scans;
        this.privateUse = checks(ContentRule.PRIVATE_USE);
        this.noncharacters = checks(ContentRule.NONCHARACTER);
        this.asciiFloor =
                checks(ContentRule.NUL) || checks(ContentRule.C0_CONTROL) || checks(ContentRule.CR) ? SPACES : 0;
    }

    /** No rule checked, no normalisation: {@link #apply(byte[])} returns its input. */
    public static ContentPolicy none() {
        return NONE;
    }

    /** These rules and this normalisation; see the class comment for how the two combine. */
    public static ContentPolicy of(ContentRules rules, Normalisation normalisation) {
        Objects.requireNonNull(rules, "rules");
        Objects.requireNonNull(normalisation, "normalisation");
        if (rules.isEmpty() && normalisation == Normalisation.NONE) {
            return NONE;
        }
        return new ContentPolicy(rules, normalisation);
    }

    /** These rules, no normalisation (NOT_NORMALISED, when checked, is about NFC). */
    public static ContentPolicy of(ContentRules rules) {
        return of(rules, Normalisation.NONE);
    }

    public ContentRules rules() {
        return rules;
    }

    /** The form text is brought into; NONE leaves it as it is unless NOT_NORMALISED is {@code replace}. */
    public Normalisation normalisation() {
        return normalisation;
    }

    /**
     * The form {@link ContentRule#NOT_NORMALISED} checks against and normalisation brings text
     * into: {@link #normalisation()}, or NFC when that is NONE. Never NONE.
     */
    public Normalisation form() {
        return form;
    }

    /**
     * Whether well-formed text may be cut before {@code codePoint}, and each part given to {@link
     * #apply} alone, with the findings of the whole: always when normalisation is not checked,
     * else when the form has a normalisation boundary there (Unicode §3.11 and UAX #15: the code
     * point neither composes with nor reorders against what precedes it). What a caller that
     * streams long text uses to choose where to cut.
     */
    public boolean isBoundaryBefore(int codePoint) {
        return normalising == ContentAction.ALLOW || Normaliser.hasBoundaryBefore(codePoint, form);
    }

    /**
     * Applies the rules, then normalisation, to {@code wellFormedUtf8}; the array is not modified.
     *
     * @param wellFormedUtf8 well-formed UTF-8 (see the class comment for ill-formed input)
     * @return the output (the same array when nothing changed) and the findings
     */
    public ContentResult apply(byte[] wellFormedUtf8) {
        return apply(wellFormedUtf8, true);
    }

    /**
     * As {@link #apply(byte[])}, for text that may be a later piece of a longer input: U+FEFF at
     * its start is a byte order mark only when {@code startOfInput}; elsewhere it is ZERO WIDTH
     * NO-BREAK SPACE (docs/content-rules.md).
     */
    public ContentResult apply(byte[] wellFormedUtf8, boolean startOfInput) {
        return apply(wellFormedUtf8, startOfInput, Integer.MAX_VALUE);
    }

    /**
     * As {@link #apply(byte[], boolean)}, keeping at most {@code kept} findings: the count, the first
     * rejected finding and what the actions did stay exact, and the heap needed stays a small
     * multiple of the text's size however many characters match (docs/dlq.md, "What is bounded").
     */
    public ContentResult apply(byte[] wellFormedUtf8, boolean startOfInput, int kept) {
        byte[] input = Objects.requireNonNull(wellFormedUtf8, "wellFormedUtf8");
        if (kept < 0) {
            throw new IllegalArgumentException("kept < 0: " + kept);
        }
        assert Utf8Validator.isWellFormed(input) : "ContentPolicy.apply needs well-formed UTF-8";
        Rewrite rewrite = rewrite(input, startOfInput, kept);
        if (rewrite == null && normalising == ContentAction.ALLOW) {
            // Nothing found, said directly: the constructor that works it out from the findings
            // runs four streams, on every clean record.
            return new ContentResult(input, List.of(), 0, null, false, false, false);
        }
        // Normalising text no code point rule matched: no Rewrite, as the clean path allocates nothing.
        byte[] output = rewrite == null ? input : rewrite.output();
        List<ContentFinding> findings = rewrite == null ? List.of() : rewrite.findings;
        int count = rewrite == null ? 0 : rewrite.count;
        ContentFinding firstRejected = rewrite == null ? null : rewrite.firstRejected;
        boolean normalisedText = false;
        byte[] normalised = normalisedIfChanged(output);
        if (normalised != null) {
            ContentFinding finding = notNormalised(output, normalised, rewrite);
            count++;
            findings = insertInOrder(findings, finding, kept);
            if (normalising == ContentAction.REPLACE) {
                output = normalised;
                normalisedText = true;
            } else if (firstRejected == null || finding.offset() < firstRejected.offset()) {
                firstRejected = finding; // after the findings that start at or before it
            }
        }
        return new ContentResult(
                output,
                findings,
                count,
                firstRejected,
                rewrite != null && rewrite.stripped,
                rewrite != null && rewrite.replaced,
                normalisedText);
    }

    /**
     * The findings {@link #apply(byte[], boolean)} would give for the well-formed UTF-8 in {@code
     * text[from, to)}, handed to {@code listener} one at a time in the same order, with offsets from
     * {@code from}; no output is built and no finding is kept. What a host that only reports needs
     * (the command line's {@code check}): a mebibyte of NUL bytes is a million findings, and a list
     * of them would make memory and time grow with the findings instead of the text. Only a checked
     * normalisation copies the range, to find its one {@link ContentRule#NOT_NORMALISED} finding.
     *
     * @return how many findings there were
     */
    public long report(byte[] text, int from, int to, boolean startOfInput, FindingListener listener) {
        Objects.checkFromToIndex(from, to, text.length);
        Objects.requireNonNull(listener, "listener");
        ContentFinding notNormalised = null;
        if (normalising != ContentAction.ALLOW) {
            byte[] input = Arrays.copyOfRange(text, from, to);
            Rewrite rewrite = rewrite(input, startOfInput, 0);
            byte[] output = rewrite == null ? input : rewrite.output();
            byte[] normalised = normalisedIfChanged(output);
            notNormalised = normalised == null ? null : notNormalised(output, normalised, rewrite);
        }
        Reporter reporter = new Reporter(from, listener, notNormalised);
        int i = from;
        ContentAction bom = actions[ContentRule.BYTE_ORDER_MARK.ordinal()];
        if (bom != ContentAction.ALLOW && startOfInput && startsWithByteOrderMark(text, from, to)) {
            reporter.finding(from, 3, ContentRule.BYTE_ORDER_MARK, bom);
            i = from + 3;
        }
        if (scans) {
            while ((i = nextToInspect(text, i, to)) < to) {
                int length = SEQUENCE_LENGTH[text[i] & 0xFF];
                int cp = i + length <= to ? decode(text, i, length) : -1;
                ContentRule rule = cp < 0 ? null : codePointRule(cp);
                ContentAction action = rule == null ? ContentAction.ALLOW : actions[rule.ordinal()];
                if (action != ContentAction.ALLOW) {
                    reporter.finding(i, length, rule, action);
                }
                i += cp < 0 ? 1 : length;
            }
        }
        reporter.finish();
        return reporter.count;
    }

    /** Receives the findings of {@link #report}, one at a time, in the order of {@link ContentResult#findings()}. */
    @FunctionalInterface
    public interface FindingListener {
        /**
         * @param offset the finding's first byte, from the start of the reported range
         * @param length its length in bytes, at least 1
         */
        void finding(int offset, int length, ContentRule rule, ContentAction action);
    }

    /** Hands findings on with offsets from the range's start, the NOT_NORMALISED one in its place. */
    private static final class Reporter {
        private final int from;
        private final FindingListener listener;
        private ContentFinding notNormalised; // until handed on
        long count;

        Reporter(int from, FindingListener listener, ContentFinding notNormalised) {
            this.from = from;
            this.listener = listener;
            this.notNormalised = notNormalised;
        }

        void finding(int at, int length, ContentRule rule, ContentAction action) {
            if (notNormalised != null && notNormalised.offset() < at - from) {
                finish(); // it goes after the findings that start at or before it
            }
            count++;
            listener.finding(at - from, length, rule, action);
        }

        void finish() {
            if (notNormalised != null) {
                ContentFinding f = notNormalised;
                notNormalised = null;
                count++;
                listener.finding((int) f.offset(), f.length(), f.rule(), f.action());
            }
        }
    }

    /**
     * The code point rules' pass over {@code input}: their findings, the first {@code kept} of them
     * kept, and their output; null when nothing matched, so the clean path allocates nothing.
     */
    private Rewrite rewrite(byte[] input, boolean startOfInput, int kept) {
        Rewrite rewrite = null;
        int n = input.length;
        int i = 0;
        ContentAction bom = actions[ContentRule.BYTE_ORDER_MARK.ordinal()];
        if (bom != ContentAction.ALLOW && startOfInput && startsWithByteOrderMark(input, 0, n)) {
            rewrite = new Rewrite(input, kept, normalising != ContentAction.ALLOW);
            rewrite.act(0, 3, ContentRule.BYTE_ORDER_MARK, bom, REPLACEMENT_CHARACTER);
            i = 3;
        }
        if (scans) {
            while ((i = nextToInspect(input, i, n)) < n) {
                int length = SEQUENCE_LENGTH[input[i] & 0xFF];
                int cp = i + length <= n ? decode(input, i, length) : -1;
                ContentRule rule = cp < 0 ? null : codePointRule(cp);
                ContentAction action = rule == null ? ContentAction.ALLOW : actions[rule.ordinal()];
                if (action != ContentAction.ALLOW) {
                    if (rewrite == null) {
                        rewrite = new Rewrite(input, kept, normalising != ContentAction.ALLOW);
                    }
                    rewrite.act(i, length, rule, action, replacement(rule, input, i));
                }
                i += cp < 0 ? 1 : length;
            }
        }
        return rewrite;
    }

    private static boolean startsWithByteOrderMark(byte[] text, int from, int to) {
        return to - from >= 3
                && text[from] == (byte) 0xEF
                && text[from + 1] == (byte) 0xBB
                && text[from + 2] == (byte) 0xBF;
    }

    /**
     * {@code text} in the checked form when normalisation is checked and changes it, else null.
     */
    private byte[] normalisedIfChanged(byte[] text) {
        if (normalising == ContentAction.ALLOW || !Normaliser.mayChange(text, form)) {
            return null;
        }
        String string = new String(text, StandardCharsets.UTF_8);
        if (Normaliser.isNormalised(string, form)) {
            return null;
        }
        byte[] normalised = Normaliser.normalise(string, form).getBytes(StandardCharsets.UTF_8);
        return Arrays.equals(normalised, text) ? null : normalised;
    }

    /**
     * The index of the next byte at or after {@code i} that may start a match, or {@code n}, the
     * end of the text: the hot loop.
     *
     * <p>It need not follow sequence boundaries. Every byte it looks for is ASCII or a lead byte,
     * never a continuation byte (80..BF), so in well-formed UTF-8 any occurrence of one starts a
     * character (Unicode §3.9, D93: UTF-8 is self-synchronising). That turns the scan into a
     * search: an 8-byte block is skipped when it is ASCII no rule checks (one test of the whole
     * {@code long}), or else when none of its bytes is in {@link #inspect} (eight table lookups
     * OR-ed together, one branch).
     */
    private int nextToInspect(byte[] input, int i, int n) {
        byte[] inspect = this.inspect;
        long floor = asciiFloor;
        while (true) {
            while (n - i >= 32 && plain32(input, i, floor)) {
                i += 32;
            }
            while (n - i >= 8) {
                long w = (long) LONGS.get(input, i);
                if ((((w - floor) | w) & HIGH_BITS) != 0
                        && (inspect[input[i] & 0xFF]
                                        | inspect[input[i + 1] & 0xFF]
                                        | inspect[input[i + 2] & 0xFF]
                                        | inspect[input[i + 3] & 0xFF]
                                        | inspect[input[i + 4] & 0xFF]
                                        | inspect[input[i + 5] & 0xFF]
                                        | inspect[input[i + 6] & 0xFF]
                                        | inspect[input[i + 7] & 0xFF])
                                != 0) {
                    break;
                }
                i += 8;
            }
            // The block that stopped the search, or the tail, byte by byte; then blocks again.
            for (int end = Math.min(n, i + 8); i < end; i++) {
                int b = input[i] & 0xFF;
                if (inspect[b] != 0 && (b < 0x80 || mayMatch(input, i, b, n))) {
                    return i;
                }
            }
            if (i == n) {
                return n;
            }
        }
    }

    /**
     * Whether the multi-byte character at {@code i}, whose lead byte {@code b} is in {@link
     * #inspect}, may match: a look at the trail bytes that rules out the common neighbours of the
     * checked sets (Latin-1 letters after C2, punctuation in E2 80, fullwidth forms in EF, emoji in
     * F0 9F) without decoding. True when the character is cut short by the end {@code n}.
     */
    private boolean mayMatch(byte[] input, int i, int b, int n) {
        if (i + SEQUENCE_LENGTH[b] > n) {
            return true;
        }
        int b1 = input[i + 1] & 0xFF;
        int b2 = b >= 0xE0 ? input[i + 2] & 0xFF : 0;
        switch (b) {
            case 0xC2: // U+0080..U+009F
                return b1 <= 0x9F;
            case 0xE2: // U+2028, U+2029
                return b1 == 0x80 && (b2 == 0xA8 || b2 == 0xA9);
            case 0xEE: // U+E000..U+EFFF, all private use
                return true;
            case 0xEF: // U+F000..U+F8FF; U+FDD0..U+FDEF; U+FFFE, U+FFFF
                return (privateUse && b1 <= 0xA3)
                        || (noncharacters && ((b1 == 0xB7 && b2 >= 0x90 && b2 <= 0xAF) || (b1 == 0xBF && b2 >= 0xBE)));
            default: // F0..F4: U+xxFFFE and U+xxFFFF (b1 ends in F, b2 is BF); planes 15 and 16
                return (noncharacters && (b1 & 0x0F) == 0x0F && b2 == 0xBF)
                        || (privateUse && (b == 0xF4 || (b == 0xF3 && b1 >= 0xB0)));
        }
    }

    /** Whether the 32 bytes at {@code i} are ASCII at or above the floor: none can start a match. */
    private static boolean plain32(byte[] input, int i, long floor) {
        long w0 = (long) LONGS.get(input, i);
        long w1 = (long) LONGS.get(input, i + 8);
        long w2 = (long) LONGS.get(input, i + 16);
        long w3 = (long) LONGS.get(input, i + 24);
        return ((w0 | w1 | w2 | w3 | (w0 - floor) | (w1 - floor) | (w2 - floor) | (w3 - floor)) & HIGH_BITS) == 0;
    }

    private boolean checks(ContentRule rule) {
        return rules.actionFor(rule) != ContentAction.ALLOW;
    }

    /**
     * The code point of the {@code length}-byte sequence at {@code i}, or -1 when its trail bytes
     * are not 80..BF (ill-formed input only: then no rule matches there).
     */
    private static int decode(byte[] b, int i, int length) {
        switch (length) {
            case 1:
                return b[i];
            case 2:
                return isContinuation(b[i + 1]) ? (b[i] & 0x1F) << 6 | (b[i + 1] & 0x3F) : -1;
            case 3:
                return isContinuation(b[i + 1]) && isContinuation(b[i + 2])
                        ? (b[i] & 0x0F) << 12 | (b[i + 1] & 0x3F) << 6 | (b[i + 2] & 0x3F)
                        : -1;
            default:
                return isContinuation(b[i + 1]) && isContinuation(b[i + 2]) && isContinuation(b[i + 3])
                        ? (b[i] & 0x07) << 18 | (b[i + 1] & 0x3F) << 12 | (b[i + 2] & 0x3F) << 6 | (b[i + 3] & 0x3F)
                        : -1;
        }
    }

    /**
     * The code point rule that {@code cp} falls under anywhere in the text, or {@code null}: every
     * rule's set except BYTE_ORDER_MARK (offset 0 only, handled before the scan) and NOT_NORMALISED
     * (not a set of code points). The sets are disjoint.
     */
    static ContentRule codePointRule(int cp) {
        if (cp < 0x20) {
            switch (cp) {
                case 0x00:
                    return ContentRule.NUL;
                case '\t':
                case '\n':
                    return null;
                case '\r':
                    return ContentRule.CR;
                default:
                    return ContentRule.C0_CONTROL;
            }
        }
        if (cp < 0x80) {
            return null;
        }
        if (cp < 0xA0) {
            return ContentRule.C1_CONTROL;
        }
        if (cp == 0x2028 || cp == 0x2029) {
            return ContentRule.LINE_SEPARATOR;
        }
        // D14: U+FDD0..U+FDEF, and U+xxFFFE and U+xxFFFF in every plane.
        if ((cp & 0xFFFE) == 0xFFFE || (cp >= 0xFDD0 && cp <= 0xFDEF)) {
            return ContentRule.NONCHARACTER;
        }
        // Co: the BMP's Private Use Area; planes 15 and 16, whose last two are noncharacters (above).
        if ((cp >= 0xE000 && cp <= 0xF8FF) || cp >= 0xF0000) {
            return ContentRule.PRIVATE_USE;
        }
        return null;
    }

    /** What REPLACE writes for a match of {@code rule} at {@code i}; see {@link ContentAction#REPLACE}. */
    private static byte[] replacement(ContentRule rule, byte[] input, int i) {
        switch (rule) {
            case LINE_SEPARATOR:
                return LINE_FEED;
            case CR:
                // The CR of a CRLF goes, leaving the LF; a lone CR becomes LF.
                return i + 1 < input.length && input[i + 1] == '\n' ? NOTHING : LINE_FEED;
            default:
                return REPLACEMENT_CHARACTER;
        }
    }

    /**
     * The finding for text that normalisation changes: from the first to the last character of
     * {@code before} that differs from {@code after}, mapped back through the code point rules'
     * edits to input offsets.
     */
    private ContentFinding notNormalised(byte[] before, byte[] after, Rewrite rewrite) {
        int start = Arrays.mismatch(before, after);
        start = Math.min(start, before.length - 1);
        while (start > 0 && isContinuation(before[start])) {
            start--;
        }
        int suffix = 0;
        int most = Math.min(before.length, after.length) - start;
        while (suffix < most && before[before.length - 1 - suffix] == after[after.length - 1 - suffix]) {
            suffix++;
        }
        int end = before.length - suffix;
        if (end <= start) {
            end = start + 1; // a pure insertion: blame the character it follows
        }
        while (end < before.length && isContinuation(before[end])) {
            end++;
        }
        long from = rewrite == null ? start : rewrite.inputStart(start);
        long to = rewrite == null ? end : rewrite.inputEnd(end);
        return new ContentFinding(from, (int) Math.max(1, to - from), ContentRule.NOT_NORMALISED, normalising);
    }

    private static boolean isContinuation(byte b) {
        return (b & 0xC0) == 0x80;
    }

    /**
     * {@code findings} (sorted by offset) with {@code finding} after every one that starts at or
     * before it, and only the first {@code kept}.
     */
    private static List<ContentFinding> insertInOrder(List<ContentFinding> findings, ContentFinding finding, int kept) {
        List<ContentFinding> all = new ArrayList<>(Math.min(findings.size() + 1, kept));
        int k = 0;
        while (k < findings.size() && findings.get(k).offset() <= finding.offset()) {
            all.add(findings.get(k++));
        }
        all.add(finding);
        all.addAll(findings.subList(k, findings.size()));
        return all.size() > kept ? all.subList(0, kept) : all;
    }

    private static byte[] sequenceLengths() {
        byte[] lengths = new byte[256];
        for (int b = 0; b < 256; b++) {
            lengths[b] =
                    (byte) (b >= 0xF0 && b <= 0xF7 ? 4 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xC0 && b <= 0xDF ? 2 : 1);
        }
        return lengths;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ContentPolicy other && rules.equals(other.rules) && normalisation == other.normalisation;
    }

    @Override
    public int hashCode() {
        return 31 * rules.hashCode() + normalisation.hashCode();
    }

    /** {@code ContentPolicy[rules=NUL:reject,CR:replace, normalisation=NFC]} */
    @Override
    public String toString() {
        return "ContentPolicy[rules=" + rules + ", normalisation=" + normalisation + "]";
    }

    /**
     * The findings and the output of one {@code apply}, created at the first finding. The output
     * is built lazily too: a REJECT alone copies nothing.
     */
    private static final class Rewrite {
        private final byte[] input;
        private final int kept;
        /** Whether normalisation follows, which maps its finding back through the edits. */
        private final boolean recordsEdits;

        final List<ContentFinding> findings = new ArrayList<>();
        int count;
        ContentFinding firstRejected;
        boolean stripped;
        boolean replaced;
        private byte[] out; // null until the first STRIP or REPLACE
        private int written;
        private int copied; // input before this index is in out, or was dropped
        /** Each edit as three ints: input offset, input length, output length; in input order. */
        private int[] edits = new int[0];

        private int editCount;

        Rewrite(byte[] input, int kept, boolean recordsEdits) {
            this.input = input;
            this.kept = kept;
            this.recordsEdits = recordsEdits;
        }

        void act(int at, int length, ContentRule rule, ContentAction action, byte[] replacement) {
            count++;
            if (findings.size() < kept) {
                findings.add(new ContentFinding(at, length, rule, action));
            }
            if (action == ContentAction.REJECT) {
                if (firstRejected == null) {
                    firstRejected = new ContentFinding(at, length, rule, action);
                }
                return;
            }
            stripped |= action == ContentAction.STRIP;
            replaced |= action == ContentAction.REPLACE;
            byte[] with = action == ContentAction.STRIP ? NOTHING : replacement;
            if (out == null) {
                out = new byte[input.length + 16];
            }
            int kept = at - copied;
            ensureCapacity(kept + with.length, at + length);
            System.arraycopy(input, copied, out, written, kept);
            System.arraycopy(with, 0, out, written + kept, with.length);
            written += kept + with.length;
            copied = at + length;
            if (!recordsEdits) {
                return;
            }
            if (editCount * 3 == edits.length) {
                edits = Arrays.copyOf(edits, Math.max(24, edits.length * 2));
            }
            edits[editCount * 3] = at;
            edits[editCount * 3 + 1] = length;
            edits[editCount * 3 + 2] = with.length;
            editCount++;
        }

        /** The input with the edits made: the input itself when there were none. */
        byte[] output() {
            if (out == null) {
                return input;
            }
            int rest = input.length - copied;
            ensureCapacity(rest, input.length);
            System.arraycopy(input, copied, out, written, rest);
            written += rest;
            copied = input.length;
            return Arrays.copyOf(out, written);
        }

        /**
         * Room for {@code more} bytes, when {@code consumed} bytes of the input are done with. The new size extrapolates the growth so far over the input
         * still to come (replacing every NUL of a mebibyte with U+FFFD grows the output once, to
         * about its final size, not four times by half).
         */
        private void ensureCapacity(int more, int consumed) {
            long needed = (long) written + more;
            if (needed > out.length) {
                long rest = input.length - (long) consumed;
                long expected = needed + rest * needed / Math.max(1, consumed) + 16;
                long size = Math.max(needed, Math.max(expected, out.length + (out.length >> 1)));
                out = Arrays.copyOf(out, (int) Math.min(size, Integer.MAX_VALUE - 8));
            }
        }

        /**
         * The input offset of output offset {@code p} as the start of a span: past any input the
         * edits dropped there, at the start of a replaced character when {@code p} is inside its
         * replacement.
         */
        long inputStart(int p) {
            long shift = 0; // input bytes minus output bytes of the edits before
            for (int e = 0; e < editCount; e++) {
                int at = edits[3 * e];
                long outputAt = at - shift;
                if (p < outputAt) {
                    break;
                }
                if (p < outputAt + edits[3 * e + 2]) {
                    return at;
                }
                shift += edits[3 * e + 1] - edits[3 * e + 2];
            }
            return p + shift;
        }

        /**
         * The input offset of output offset {@code p} as the (exclusive) end of a span: before any
         * input the edits dropped there, at the end of a replaced character when {@code p} is
         * inside its replacement.
         */
        long inputEnd(int p) {
            long shift = 0;
            for (int e = 0; e < editCount; e++) {
                int at = edits[3 * e];
                long outputAt = at - shift;
                if (p <= outputAt) {
                    break;
                }
                if (p < outputAt + edits[3 * e + 2]) {
                    return at + edits[3 * e + 1];
                }
                shift += edits[3 * e + 1] - edits[3 * e + 2];
            }
            return p + shift;
        }
    }
}
