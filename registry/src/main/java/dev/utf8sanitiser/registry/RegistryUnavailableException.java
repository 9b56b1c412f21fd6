package dev.utf8sanitiser.registry;

/**
 * The registry could not answer: unreachable, timing out, a server error, or refusing our
 * credentials. Never a verdict on a record: the host stops (or retries) rather than dead-letter it.
 * {@link RegistryMisconfiguredException} is the kind that no retry can cure.
 */
public sealed class RegistryUnavailableException extends SchemaRegistryException
        permits RegistryMisconfiguredException {
    public RegistryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public RegistryUnavailableException(String message) {
        super(message);
    }
}
