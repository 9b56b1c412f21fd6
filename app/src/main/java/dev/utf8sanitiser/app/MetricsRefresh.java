package dev.utf8sanitiser.app;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The scheduler of Micrometer's Kafka binder, which looks for Kafka metrics that appeared since it
 * last looked (a task's sensors, a new rule's dead-letter counter) once a minute and offers no
 * setting for it: a new series reached {@code /metrics} up to 60 s late. This scheduler runs that
 * periodic check every {@link #PERIOD} instead, whatever period the binder asks for. The check
 * compares metric names only, so it is cheap.
 */
final class MetricsRefresh extends ScheduledThreadPoolExecutor {
    static final Duration PERIOD = Duration.ofSeconds(2);

    MetricsRefresh() {
        super(1, runnable -> {
            Thread thread = new Thread(runnable, "utf8-sanitiser-metrics-refresh");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        long millis = PERIOD.toMillis();
        return super.scheduleAtFixedRate(command, millis, millis, TimeUnit.MILLISECONDS);
    }
}
