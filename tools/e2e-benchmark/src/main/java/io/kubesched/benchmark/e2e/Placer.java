package io.kubesched.benchmark.e2e;

import java.io.IOException;

/** What places the pods of a run: a scheduler process, or the runner's own bind-ceiling binder. */
interface Placer extends AutoCloseable {

  /** Stops placing pods until {@link #resume}, so that a backlog can be created. */
  void pause() throws IOException, InterruptedException;

  void resume() throws IOException, InterruptedException;

  /** Throws, saying why, if it can no longer place pods. */
  void check() throws IOException;

  /** User plus system CPU seconds used so far; NaN when it runs inside the runner. */
  double cpuSeconds() throws IOException;

  /** The peak resident set so far, in MiB; NaN when it runs inside the runner. */
  double peakRssMiB() throws IOException;

  /**
   * Its scheduling attempts so far, by result ({@link ScheduleAttempts}); {@link RunResult.Attempts#NONE} when it
   * does not count them (the bind ceiling, a scheduler started without its metrics).
   *
   * @throws IOException if a scheduler that counts them does not say
   */
  default RunResult.Attempts attempts() throws IOException {
    return RunResult.Attempts.NONE;
  }

  /** The end of its log, for error messages; empty if it has none. */
  String tail() throws IOException;

  @Override
  void close() throws InterruptedException;
}
