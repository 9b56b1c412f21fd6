package dev.utf8sanitiser.streams;

import org.apache.kafka.streams.kstream.KStream;

/**
 * The two streams {@link StreamsSanitiser#sanitise} parts its input into. Every input record is in
 * exactly one of them, with its headers: the output carries {@code __utf8.action} and {@code
 * __utf8.errors} when the policy fixed it; a dead letter is byte-exact with the annotation of
 * docs/dlq.md.
 *
 * @param output well-formed records, and those the policy fixed: write them where the application
 *     reads clean text, or go on processing them
 * @param deadLetters refused records, to be written to a dead-letter topic as they are
 */
public record SanitisedStreams(KStream<byte[], byte[]> output, KStream<byte[], byte[]> deadLetters) {}
