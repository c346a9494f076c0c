package io.kubesched.samples.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import io.kubesched.policy.config.SchedulerConfiguration;
import io.kubesched.policy.framework.Filter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sample's {@code config.yaml}, read as the server reads it. */
class PlatformSchedulerTest {

  private static final Path CONFIG = Path.of("config.yaml");

  @Test
  void the_configuration_enables_the_registered_filter_after_kubes_with_its_args() {
    var config = SchedulerConfiguration.read(CONFIG, PlatformScheduler.server().plugins());
    assertEquals(1, config.profiles().size());
    var profile = config.profiles().get(0);
    assertEquals("platform-scheduler", profile.schedulerName());
    var filters = profile.policy().filters().stream().map(Filter::name).toList();
    assertEquals(AvoidDrainingNodes.NAME, filters.get(filters.size() - 1), filters.toString());
    assertTrue(filters.contains("NodeResourcesFit"), filters.toString());
    assertEquals("AvoidDrainingNodes" + new DrainingArgs("lifecycle.example.com/state", List.of("draining",
        "retiring")), profile.policy().filters().get(filters.size() - 1).toString());
  }

  @Test
  void the_default_server_refuses_the_configuration_naming_the_plugin() {
    var error = assertThrows(ConfigurationException.class, () -> SchedulerConfiguration.read(CONFIG));
    assertTrue(error.getMessage().contains("\"AvoidDrainingNodes\" is not a plugin of kube-scheduler 1.37"),
        error.getMessage());
  }
}
