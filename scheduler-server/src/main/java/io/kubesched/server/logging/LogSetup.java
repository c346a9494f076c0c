package io.kubesched.server.logging;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import java.util.Locale;

/**
 * Installs the server's logging into a Logback context: one appender on standard error (where kube's
 * components log) with the chosen format, and the levels {@link Verbosity} gives. Replaces whatever the context
 * had, so calling it again switches format and levels.
 */
public final class LogSetup {

  /** The two formats, named as {@code --logging-format} names them. */
  public enum Format {
    TEXT,
    JSON;

    /** @return {@code text} or {@code json} */
    public String flag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private LogSetup() {}

  /** Called once from Logback's initialization (DefaultLogging), and from the server's start with its flags. */
  public static void apply(LoggerContext context, Format format, Verbosity verbosity) {
    context.reset();
    Encoder<ILoggingEvent> encoder =
        format == Format.JSON
            ? new LineEncoder(JsonLineEncoder::format, verbosity.stacks())
            : new LineEncoder(TextLineEncoder::format, verbosity.stacks());
    encoder.setContext(context);
    encoder.start();
    var appender = new ConsoleAppender<ILoggingEvent>();
    appender.setContext(context);
    appender.setName("stderr");
    appender.setTarget("System.err");
    appender.setEncoder(encoder);
    appender.start();
    var root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.addAppender(appender);
    root.setLevel(verbosity.dependencies());
    context.getLogger("io.kubesched").setLevel(verbosity.library());
    verbosity.overrides().forEach((name, level) -> context.getLogger(name).setLevel(level));
  }
}
