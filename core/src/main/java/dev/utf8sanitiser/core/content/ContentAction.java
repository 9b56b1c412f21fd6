package dev.utf8sanitiser.core.content;

/**
 * What a {@link ContentPolicy} does where a {@link ContentRule} matches. Every match except under
 * {@link #ALLOW} is reported as a {@link ContentFinding}; the output is decided per action:
 *
 * <table>
 *   <caption>The output for each rule and action</caption>
 *   <tr><th>rule</th><th>REJECT</th><th>STRIP</th><th>REPLACE</th></tr>
 *   <tr><td>NUL, C0_CONTROL, C1_CONTROL, NONCHARACTER, PRIVATE_USE</td>
 *       <td>kept</td><td>removed</td><td>U+FFFD, one per code point</td></tr>
 *   <tr><td>BYTE_ORDER_MARK</td><td>kept</td><td>removed</td><td>U+FFFD</td></tr>
 *   <tr><td>LINE_SEPARATOR</td><td>kept</td><td>removed</td><td>U+000A LF</td></tr>
 *   <tr><td>CR</td><td>kept</td><td>removed (CRLF becomes LF, a lone CR disappears)</td>
 *       <td>CRLF becomes LF; a lone CR becomes LF</td></tr>
 *   <tr><td>NOT_NORMALISED</td><td>kept (not normalised)</td><td>not accepted</td>
 *       <td>the text normalised into the form</td></tr>
 * </table>
 */
public enum ContentAction {
    /** Not checked: no finding, the text is left as it is. The action of every rule not configured. */
    ALLOW,
    /**
     * Report and keep: the output keeps the matching code points, and {@link
     * ContentResult#rejected()} tells the caller to refuse the whole text (a dead-letter topic, an
     * error). Other rules' strips and replacements still apply to the output.
     */
    REJECT,
    /**
     * Remove the matching code points. {@link ContentRule#NOT_NORMALISED} does not accept it:
     * there is no code point to remove, and dropping the marks that make text non-normalised would
     * change its meaning.
     */
    STRIP,
    /**
     * Replace each matching code point with U+FFFD REPLACEMENT CHARACTER (Unicode §23.8: "used to
     * replace an incoming character whose value is unknown or unrepresentable"), except where a
     * better replacement exists: line ends ({@link ContentRule#CR}, {@link
     * ContentRule#LINE_SEPARATOR}) become U+000A LF, the one line terminator the Corrected UTF-8
     * Corrected UTF-8 proposal keeps, and {@link ContentRule#NOT_NORMALISED} text is normalised.
     */
    REPLACE;
}
