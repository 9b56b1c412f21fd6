/**
 * The sanitiser in a Kafka Connect worker: the transformation {@link
 * dev.utf8sanitiser.connect.Utf8Sanitise} (in its {@code Key} and {@code Value} forms) and the
 * predicate {@link dev.utf8sanitiser.connect.IsWellFormedUtf8}.
 *
 * <p>Both read the shared configuration of the {@code config} module ({@link
 * dev.utf8sanitiser.connect.ConnectKeys} says which keys each takes) and decide through the record
 * layer of {@code serdes} ({@link dev.utf8sanitiser.connect.ValueChecker}), so a record gets the same
 * verdict, the same repaired bytes and the same headers (docs/dlq.md) as in the Kafka Streams sanitiser.
 */
package dev.utf8sanitiser.connect;
