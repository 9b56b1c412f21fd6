package dev.utf8sanitiser.app.cli;

import java.util.Arrays;

/**
 * Problems found together, in offset order, held as numbers: a mebibyte of NUL bytes is a million
 * content findings, and an object each would make {@code check}'s memory and time grow with the
 * findings rather than the input. Reused from piece to piece, so it grows to the largest piece's
 * count once.
 */
final class ProblemBatch {
    private long[] offsets = new long[64];
    private int[] lengths = new int[64];
    private byte[] codes = new byte[64];
    private int size;

    void add(long offset, int length, int code) {
        if (size == offsets.length) {
            int grown = size + (size >> 1);
            offsets = Arrays.copyOf(offsets, grown);
            lengths = Arrays.copyOf(lengths, grown);
            codes = Arrays.copyOf(codes, grown);
        }
        offsets[size] = offset;
        lengths[size] = length;
        codes[size] = (byte) code;
        size++;
    }

    int size() {
        return size;
    }

    long offset(int i) {
        return offsets[i];
    }

    int length(int i) {
        return lengths[i];
    }

    int code(int i) {
        return codes[i];
    }

    void clear() {
        size = 0;
    }
}
