package io.kubesched.server.logging;

import static io.kubesched.server.logging.VerbosityProperties.context;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import org.junit.jupiter.api.Test;

class VerbosityTest {

  private static final String LOOP = "io.kubesched.informer.cycle.BindingCycle";
  private static final String DECISIONS = "io.kubesched.server.DecisionLog";
  private static final String FABRIC8 = "io.fabric8.kubernetes.client.informers.impl.cache.Reflector";
  private static final String ELECTOR = "io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector";

  @Test
  void at_0_the_scheduler_logs_info_and_dependencies_warnings() {
    var context = context(0);
    assertTrue(context.getLogger(LOOP).isInfoEnabled());
    assertFalse(context.getLogger(LOOP).isDebugEnabled());
    assertFalse(context.getLogger(DECISIONS).isDebugEnabled());
    assertTrue(context.getLogger(FABRIC8).isWarnEnabled());
    assertFalse(context.getLogger(FABRIC8).isInfoEnabled());
    assertFalse(context.getLogger(ELECTOR).isErrorEnabled(), "fabric8's elector repeats what LeaderElection says");
  }

  @Test
  void at_2_each_decision_is_a_line_and_the_rest_stays_at_info() {
    var context = context(2);
    assertTrue(context.getLogger(DECISIONS).isDebugEnabled());
    assertTrue(context.getLogger("io.kubesched.binder.Preempter").isDebugEnabled());
    assertFalse(context.getLogger(LOOP).isDebugEnabled());
    assertFalse(context.getLogger("io.kubesched.binder.Binder").isDebugEnabled());
  }

  @Test
  void at_4_the_scheduler_debugs_dependencies_inform_and_stacks_are_written() {
    var context = context(4);
    assertTrue(context.getLogger(LOOP).isDebugEnabled());
    assertFalse(context.getLogger(LOOP).isTraceEnabled());
    assertTrue(context.getLogger(FABRIC8).isInfoEnabled());
    assertFalse(context.getLogger(FABRIC8).isDebugEnabled());
    assertTrue(context.getLogger(ELECTOR).isErrorEnabled());
    assertTrue(new Verbosity(4).stacks());
    assertFalse(new Verbosity(3).stacks());
  }

  @Test
  void from_5_the_scheduler_traces_and_dependencies_debug() {
    var context = context(5);
    assertTrue(context.getLogger(LOOP).isTraceEnabled());
    assertTrue(context.getLogger(FABRIC8).isDebugEnabled());
    assertEquals(Level.DEBUG, new Verbosity(9).dependencies());
  }

  @Test
  void a_negative_verbosity_is_refused() {
    assertThrows(IllegalArgumentException.class, () -> new Verbosity(-1));
  }
}
