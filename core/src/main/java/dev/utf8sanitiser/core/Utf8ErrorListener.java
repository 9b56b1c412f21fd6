package dev.utf8sanitiser.core;

/** Receives ill-formed places in the order they occur in the input. */
@FunctionalInterface
public interface Utf8ErrorListener {
    void onError(Utf8Error error);
}
