package dev.utf8sanitiser.registry;

/**
 * What answered at {@code schema.registry.url} cannot be used as configured: a URL without the
 * registry's path (a 404 that is not Confluent's "not found"), a web page instead of the API, a
 * redirect, refused credentials, a failed TLS handshake, or {@code http://} to a TLS port. Never a
 * verdict on a record and never retried: the configuration must change. It is a kind of {@link
 * RegistryUnavailableException}, so every host that stops on an unavailable registry stops on this
 * too; the application's start-up probe tells the two apart (exit 2 for this one).
 */
public final class RegistryMisconfiguredException extends RegistryUnavailableException {
    public RegistryMisconfiguredException(String message) {
        super(message);
    }

    public RegistryMisconfiguredException(String message, Throwable cause) {
        super(message, cause);
    }
}
