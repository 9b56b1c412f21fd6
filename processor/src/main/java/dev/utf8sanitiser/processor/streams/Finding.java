package dev.utf8sanitiser.processor.streams;

import dev.utf8sanitiser.core.Utf8Error;

/** The first ill-formed place of a record: in which part, and the part's bytes for context. */
public record Finding(Part part, Utf8Error error, byte[] bytes) {}
