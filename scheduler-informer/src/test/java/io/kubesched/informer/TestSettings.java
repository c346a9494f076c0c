package io.kubesched.informer;

import io.kubesched.api.PodGroupRef;
import io.kubesched.binder.BindMode;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

/**
 * Loop settings for tests that run against the fake cluster: written to as it needs ({@link
 * BindMode#SET_NODE_NAME}), kube-scheduler's timings and write limits, no leader election. The library's
 * defaults belong to the facade's {@code Options}; these only mirror them so the tests run the loop as
 * users do.
 */
public final class TestSettings {

  private TestSettings() {}

  /** @return settings for a loop whose first profile is {@code schedulerName} */
  public static ControllerSettings forFakeCluster(String schedulerName) {
    return new ControllerSettings(
        schedulerName,
        BindMode.SET_NODE_NAME,
        Duration.ofSeconds(30),
        Duration.ofSeconds(600),
        Duration.ofSeconds(1),
        Duration.ofSeconds(10),
        Duration.ofSeconds(60),
        Duration.ofMinutes(5),
        Duration.ofMinutes(15),
        50,
        100,
        16,
        Duration.ofSeconds(30),
        null, false,
        EnumSet.allOf(PodGroupRef.Source.class),
        Duration.ofMinutes(5),
        Set.of(),
        16);
  }
}
