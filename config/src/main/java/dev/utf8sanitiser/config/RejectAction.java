package dev.utf8sanitiser.config;

/**
 * What the Kafka Connect SMT does with a record it rejects ({@code sanitiser.on.reject}): under
 * {@code strict} an ill-formed one, under every policy one that a content rule rejects.
 */
public enum RejectAction {
    /**
     * Throw a {@code DataException} naming rule, part, field and offset, so that Connect's own error
     * handling ({@code errors.tolerance}, the sink dead-letter queue) decides. The default.
     */
    FAIL,
    /**
     * Send the record unchanged to {@code sanitiser.dlq.topic} with the headers of docs/dlq.md: a dead-letter
     * queue for source connectors, which Connect does not give them.
     */
    ROUTE
}
