/**
 * Every option of the sanitiser, defined once with Kafka's {@link org.apache.kafka.common.config.ConfigDef}
 * and shared by the Kafka Streams processor, the serdes and the Kafka Connect SMT.
 *
 * <p>Start with {@link dev.utf8sanitiser.config.SanitiserConfig} (the definitions and typed
 * accessors) and {@link dev.utf8sanitiser.config.SanitiserConfigLoader} (a properties file plus
 * environment overrides, every bad value reported at once). The keys and their meaning are binding
 * (docs/dlq.md); {@code docs/configuration.md} is generated from the definitions by {@link
 * dev.utf8sanitiser.config.ConfigurationDocs}.
 */
package dev.utf8sanitiser.config;
