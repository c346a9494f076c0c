package io.kubesched.server.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Logback's configuration until the command line is read: text at {@code -v=0}, found by Logback through
 * {@code ServiceLoader} (META-INF/services and the module's {@code provides}), so that no XML is needed and a
 * line logged before the flags are parsed already has the server's format. Instantiated by Logback only.
 */
public final class DefaultLogging extends ContextAwareBase implements Configurator {

  /** For {@code ServiceLoader}. */
  public DefaultLogging() {}

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    LogSetup.apply(context, LogSetup.Format.TEXT, new Verbosity(0));
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
