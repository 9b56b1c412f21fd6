package dev.utf8sanitiser.app;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/**
 * The lines one class logs while it is open, as {@code LEVEL message}: an appender on that class's
 * logger, set to a level for the while, both undone on close.
 */
public final class LogLines implements AutoCloseable {
    private final Logger logger;
    private final Level level;
    private final AbstractAppender appender;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private LogLines(Class<?> source, Level level) {
        this.logger = (Logger) LogManager.getLogger(source);
        this.level = logger.getLevel();
        this.appender = new AbstractAppender("capture", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                lines.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
            }
        };
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(level);
    }

    /** Captures what {@code source} logs at {@code level} and above until closed. */
    public static LogLines of(Class<?> source, Level level) {
        return new LogLines(source, level);
    }

    public List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        logger.removeAppender(appender);
        logger.setLevel(level);
    }
}
