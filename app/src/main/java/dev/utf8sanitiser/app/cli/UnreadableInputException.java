package dev.utf8sanitiser.app.cli;

/** An input that cannot be read: exit code 2, one line on stderr naming the input and the cause. */
final class UnreadableInputException extends Exception {
    private static final long serialVersionUID = 1L;

    UnreadableInputException(String input, String cause) {
        super(input + ": " + cause);
    }
}
