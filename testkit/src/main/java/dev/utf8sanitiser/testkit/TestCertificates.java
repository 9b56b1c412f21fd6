package dev.utf8sanitiser.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Self-signed certificates for tests, made at run time by the JDK's own {@code keytool}, so that
 * nothing secret or expiring is committed and no library is needed: an EC P-256 key pair valid for
 * 30 days in a PKCS12 key store, and a PKCS12 trust store holding its certificate. Test material
 * only.
 */
final class TestCertificates {
    /** The password of every store made here: they protect nothing. */
    static final String PASSWORD = "test-only";

    /** The store format of every store made here. */
    static final String STORE_TYPE = "PKCS12";

    private static final long KEYTOOL_TIMEOUT_SECONDS = 60;

    private TestCertificates() {}

    /**
     * A new key store {@code file} with one key pair under {@code alias}, its certificate issued to
     * {@code CN=<alias>} for the subject alternative names {@code names} ({@code dns:localhost},
     * {@code ip:127.0.0.1}).
     */
    static Path keyStore(Path file, String alias, List<String> names) {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> command = List.of(
                keytool.toString(),
                // A short-lived JVM: no optimising compiler, the simplest collector.
                "-J-XX:TieredStopAtLevel=1",
                "-J-XX:+UseSerialGC",
                "-genkeypair",
                "-alias",
                alias,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-sigalg",
                "SHA256withECDSA",
                "-dname",
                "CN=" + alias,
                "-ext",
                "SAN=" + String.join(",", names),
                "-validity",
                "30",
                "-keystore",
                file.toString(),
                "-storetype",
                STORE_TYPE,
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD);
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("keytool did not finish within " + KEYTOOL_TIMEOUT_SECONDS + " s");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(
                        "keytool failed (exit " + process.exitValue() + "): " + new String(output, UTF_8).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + keytool, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running keytool", e);
        }
        return file;
    }

    /** A new trust store {@code file} that trusts the certificate of {@code alias} in {@code keyStore}. */
    static Path trustStore(Path file, Path keyStore, String alias) {
        try {
            KeyStore trust = KeyStore.getInstance(STORE_TYPE);
            trust.load(null, null);
            trust.setCertificateEntry(alias, certificate(keyStore, alias));
            try (OutputStream out = Files.newOutputStream(file)) {
                trust.store(out, PASSWORD.toCharArray());
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot write trust store " + file, e);
        }
    }

    /** The store in {@code file}, made here. */
    static KeyStore load(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance(STORE_TYPE);
            store.load(in, PASSWORD.toCharArray());
            return store;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read key store " + file, e);
        }
    }

    private static Certificate certificate(Path keyStore, String alias) throws GeneralSecurityException {
        Certificate certificate = load(keyStore).getCertificate(alias);
        if (certificate == null) {
            throw new IllegalStateException("no certificate " + alias + " in " + keyStore);
        }
        return certificate;
    }
}
