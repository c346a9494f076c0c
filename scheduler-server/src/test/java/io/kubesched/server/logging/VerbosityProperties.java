package io.kubesched.server.logging;

import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class VerbosityProperties {

  private static final List<String> LOGGERS = List.of(
      "io.kubesched.informer.cycle.BindingCycle",
      "io.kubesched.server.DecisionLog",
      "io.kubesched.binder.Preempter",
      "io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector",
      "io.fabric8.kubernetes.client.informers.impl.cache.Reflector",
      "org.eclipse.jetty.server.Server");

  private static final List<Level> LEVELS = List.of(Level.ERROR, Level.WARN, Level.INFO, Level.DEBUG, Level.TRACE);

  @Property
  void a_higher_verbosity_never_logs_less(
      @ForAll @IntRange(max = 9) int lower, @ForAll @IntRange(max = 3) int more) {
    var quiet = context(lower);
    var loud = context(lower + more);
    for (var name : LOGGERS) {
      for (var level : LEVELS) {
        if (quiet.getLogger(name).isEnabledFor(level)) {
          assertTrue(loud.getLogger(name).isEnabledFor(level),
              name + " logs " + level + " at -v=" + lower + " but not at -v=" + (lower + more));
        }
      }
    }
  }

  @Property
  void a_dependency_is_never_louder_than_the_scheduler(@ForAll @IntRange(max = 12) int v) {
    var context = context(v);
    for (var level : LEVELS) {
      if (context.getLogger("org.eclipse.jetty.server.Server").isEnabledFor(level)) {
        assertTrue(context.getLogger("io.kubesched.informer.cycle.BindingCycle").isEnabledFor(level),
            "a dependency logs " + level + " at -v=" + v + " where the scheduler does not");
      }
    }
  }

  static LoggerContext context(int v) {
    var context = new LoggerContext();
    LogSetup.apply(context, LogSetup.Format.TEXT, new Verbosity(v));
    return context;
  }
}
