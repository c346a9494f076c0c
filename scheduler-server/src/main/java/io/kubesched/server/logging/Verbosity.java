package io.kubesched.server.logging;

import ch.qos.logback.classic.Level;
import java.util.List;
import java.util.Map;

/**
 * kube's {@code -v} as Logback levels. kube-scheduler logs at 0 what is always wanted, at 2 the steady-state
 * lines a production scheduler runs with (a pod bound, a pod that does not fit, a victim preempted), at 4 what
 * helps debugging, at 5 and above traces. Here: the server's and library's loggers ({@code io.kubesched}) at
 * INFO up to 3, DEBUG at 4, TRACE from 5; the per-decision loggers ({@link #STEADY_STATE}) at DEBUG from 2;
 * every other logger (fabric8, the JDK's HTTP client, ...) one level quieter than ours; stack traces from 4.
 * fabric8's leader elector is off below 4: it logs each failed attempt with a stack trace every retry period,
 * and the loop's own leader election logs the same failure once per change.
 *
 * @param value the {@code -v} given, 0 or more
 */
public record Verbosity(int value) {

  /** The loggers that write one line per decision, on from {@code -v=2}: kube's steady-state information. */
  public static final List<String> STEADY_STATE =
      List.of("io.kubesched.server.DecisionLog", "io.kubesched.binder.Preempter");

  /** The logger of fabric8's leader elector, quieted below {@code -v=4}. */
  static final String FABRIC8_LEADER_ELECTOR = "io.fabric8.kubernetes.client.extended.leaderelection";

  /** @throws IllegalArgumentException if {@code value} is negative */
  public Verbosity {
    if (value < 0) {
      throw new IllegalArgumentException("-v must be 0 or more, was " + value);
    }
  }

  /** @return the level of the {@code io.kubesched} loggers */
  public Level library() {
    return value >= 5 ? Level.TRACE : value >= 4 ? Level.DEBUG : Level.INFO;
  }

  /** @return the level of every other logger: one quieter than {@link #library()} */
  public Level dependencies() {
    return value >= 5 ? Level.DEBUG : value >= 4 ? Level.INFO : Level.WARN;
  }

  /** @return whether a logged exception's stack trace is written (else its one-line message only) */
  public boolean stacks() {
    return value >= 4;
  }

  /**
   * @return the loggers set apart from {@link #library()} and {@link #dependencies()}, with their levels: the
   *     {@link #STEADY_STATE} ones at DEBUG from 2 (where the library is quieter), fabric8's leader elector off
   *     below 4
   */
  public Map<String, Level> overrides() {
    var levels = new java.util.LinkedHashMap<String, Level>();
    if (value >= 2 && value < 4) {
      STEADY_STATE.forEach(name -> levels.put(name, Level.DEBUG));
    }
    if (value < 4) {
      levels.put(FABRIC8_LEADER_ELECTOR, Level.OFF);
    }
    return levels;
  }
}
