package dev.utf8sanitiser.core.content;

/**
 * A Unicode normalisation form (Unicode Standard Annex #15, "Unicode Normalization Forms"), or
 * none: the form a {@link ContentPolicy} brings text into, and the one {@link
 * ContentRule#NOT_NORMALISED} checks against.
 */
public enum Normalisation {
    /** Leave the text as it is. */
    NONE,
    /** Canonical decomposition, then canonical composition (Unicode §3.11, D120): the form the web and most text use. */
    NFC,
    /** Canonical decomposition (Unicode §3.11, D118). */
    NFD,
    /** Compatibility decomposition, then canonical composition (Unicode §3.11, D121): folds ﬁ to fi, ① to 1. */
    NFKC,
    /** Compatibility decomposition (Unicode §3.11, D119). */
    NFKD;
}
