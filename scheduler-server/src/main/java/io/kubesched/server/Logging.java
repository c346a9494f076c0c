package io.kubesched.server;

import ch.qos.logback.classic.LoggerContext;
import io.kubesched.api.ConfigurationException;
import io.kubesched.server.logging.LogSetup;
import io.kubesched.server.logging.Verbosity;
import java.util.Arrays;
import java.util.Locale;
import org.slf4j.LoggerFactory;

/**
 * The server's logging, set from {@code --logging-format} and {@code -v} once the command line is parsed (Logback,
 * configured in code: {@link LogSetup}; until then text at {@code -v=0}). The formats, fields and levels are in
 * docs/operations.md#logs.
 */
final class Logging {

  private Logging() {}

  /**
   * Switches the server's logging to {@code format} at {@code verbosity}. Called on the main thread before the
   * server starts; calling it again switches again.
   *
   * @param format {@code text} or {@code json}, as kube's {@code --logging-format}
   * @param verbosity kube's {@code -v}: 0 or more
   * @throws ConfigurationException naming the flag and the value, for another format or a negative verbosity
   * @throws IllegalStateException if the SLF4J backend is not Logback (a class path that brought another one)
   */
  static void configure(String format, int verbosity) {
    LogSetup.Format chosen;
    try {
      chosen = LogSetup.Format.valueOf(format.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException(
          "command line: --logging-format must be one of "
              + Arrays.stream(LogSetup.Format.values()).map(LogSetup.Format::flag).toList()
              + ", was '" + format + "'");
    }
    if (verbosity < 0) {
      throw new ConfigurationException("command line: -v must be 0 or more, was " + verbosity);
    }
    var factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext context)) {
      throw new IllegalStateException(
          "the logging backend is " + factory.getClass().getName() + ", not Logback: remove it from the class path");
    }
    LogSetup.apply(context, chosen, new Verbosity(verbosity));
  }

  /** Leaves only warnings and errors in the log (a command whose answer is its output: {@code simulate}). */
  static void warningsOnly() {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      context.getLoggerList().forEach(logger -> {
        if (logger.getLevel() != null) {
          logger.setLevel(ch.qos.logback.classic.Level.WARN);
        }
      });
      context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(ch.qos.logback.classic.Level.WARN);
    }
  }
}
