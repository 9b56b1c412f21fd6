package dev.utf8sanitiser.bench;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * A real corpus cut into sentences (after a full stop, Latin or CJK): the text of the string fields
 * of the record benchmarks ({@link AvroBenchmark}, {@link ProtobufBenchmark}).
 */
final class Sentences {
    private final String[] sentences;

    private Sentences(String[] sentences) {
        this.sentences = sentences;
    }

    /** The sentences of a well-formed corpus ({@link Corpus#load}). */
    static Sentences of(String corpus) {
        return new Sentences(new String(Corpus.load(corpus), StandardCharsets.UTF_8).split("(?<=[.。])\\s*"));
    }

    /** A sentence chosen by {@code random}, stripped, at most 80 code points. */
    String pick(Random random) {
        String s = sentences[random.nextInt(sentences.length)].strip();
        return s.length() > 80
                ? s.substring(0, s.offsetByCodePoints(0, Math.min(80, s.codePointCount(0, s.length()))))
                : s;
    }
}
