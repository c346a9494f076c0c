package io.kubesched.server;

import java.util.Objects;

/**
 * Where the server's logging is set up from {@code --logging-format} and {@code -v}. A placeholder: it checks the
 * values and leaves the logging backend as it is; the logging backend replaces it.
 */
final class Logging {

  private Logging() {}

  /**
   * Sets up logging. Called once, by {@link Main}, before anything logs.
   *
   * @param format {@code text} or {@code json}
   * @param verbosity kube's {@code -v}, 0 or more
   * @throws IllegalArgumentException if {@code format} or {@code verbosity} is not one {@link Flags} accepts
   */
  static void configure(String format, int verbosity) {
    Objects.requireNonNull(format, "format");
    if (!Flags.LOGGING_FORMATS.contains(format)) {
      throw new IllegalArgumentException("logging format must be one of " + Flags.LOGGING_FORMATS + ", was " + format);
    }
    if (verbosity < 0) {
      throw new IllegalArgumentException("verbosity must be 0 or more, was " + verbosity);
    }
  }
}
