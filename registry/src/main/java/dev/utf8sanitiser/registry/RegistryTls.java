package dev.utf8sanitiser.registry;

import dev.utf8sanitiser.config.SchemaRegistryKeys;
import dev.utf8sanitiser.config.SchemaRegistrySettings;
import dev.utf8sanitiser.config.SchemaRegistrySettings.StoreFile;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The {@link SSLContext} of the registry client, from the {@code schema.registry.ssl.*} settings:
 * the trust store (or the JVM's default), the key store for mutual TLS, and the host name check.
 */
final class RegistryTls {
    private RegistryTls() {}

    /** Whether the settings ask for anything but the JVM's default TLS. */
    static boolean customised(SchemaRegistrySettings settings) {
        return settings.trustStore().isPresent() || settings.keyStore().isPresent() || !settings.hostNameCheck();
    }

    /**
     * The context for {@code https} registry URLs.
     *
     * @throws ConfigException a store cannot be read (wrong password, wrong type, not a store)
     */
    static SSLContext sslContext(SchemaRegistrySettings settings) {
        KeyManager[] keyManagers = null;
        if (settings.keyStore().isPresent()) {
            StoreFile file = settings.keyStore().get();
            KeyStore store = load(file, SchemaRegistryKeys.SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION_CONFIG);
            char[] keyPassword = settings.keyPassword()
                    .or(file::password)
                    .map(Password::value)
                    .map(String::toCharArray)
                    .orElse(new char[0]);
            try {
                KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                factory.init(store, keyPassword);
                keyManagers = factory.getKeyManagers();
            } catch (GeneralSecurityException e) {
                throw new ConfigException(
                        SchemaRegistryKeys.SCHEMA_REGISTRY_SSL_KEY_PASSWORD_CONFIG,
                        settings.keyPassword().orElse(new Password("")),
                        "cannot read the private key in " + file.location() + ": " + e.getMessage());
            }
        }
        TrustManager[] trustManagers;
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(settings.trustStore()
                    .map(file -> load(file, SchemaRegistryKeys.SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION_CONFIG))
                    .orElse(null));
            trustManagers = factory.getTrustManagers();
        } catch (GeneralSecurityException e) {
            throw new ConfigException("Cannot set up the registry's trust store: " + e.getMessage());
        }
        if (!settings.hostNameCheck()) {
            trustManagers = Arrays.stream(trustManagers)
                    .map(manager ->
                            manager instanceof X509ExtendedTrustManager extended ? new AnyHostName(extended) : manager)
                    .toArray(TrustManager[]::new);
        }
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers, trustManagers, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new ConfigException("Cannot set up TLS for the Schema Registry: " + e.getMessage());
        }
    }

    private static KeyStore load(StoreFile file, String key) {
        try (InputStream in = Files.newInputStream(file.location())) {
            KeyStore store = KeyStore.getInstance(file.type());
            store.load(
                    in,
                    file.password()
                            .map(Password::value)
                            .map(String::toCharArray)
                            .orElse(null));
            return store;
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException(
                    key,
                    file.location().toString(),
                    "cannot be read as a " + file.type() + " store with the configured password: "
                            + Optional.ofNullable(e.getMessage())
                                    .orElse(e.getClass().getSimpleName()));
        }
    }

    /**
     * Checks the certificate chain as the trust manager it wraps does, but not the host name:
     * {@code schema.registry.ssl.endpoint.identification.algorithm} is empty. It must be an {@link
     * X509ExtendedTrustManager}, or JSSE would check the host name itself.
     */
    private static final class AnyHostName extends X509ExtendedTrustManager {
        private final X509ExtendedTrustManager delegate;

        AnyHostName(X509ExtendedTrustManager delegate) {
            this.delegate = delegate;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            delegate.checkServerTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            delegate.checkServerTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            delegate.checkServerTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            delegate.checkClientTrusted(chain, authType, engine);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            delegate.checkClientTrusted(chain, authType, socket);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            delegate.checkClientTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return delegate.getAcceptedIssuers();
        }
    }
}
