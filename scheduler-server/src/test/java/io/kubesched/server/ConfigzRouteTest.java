package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.policy.config.SchedulerConfiguration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConfigzRouteTest {

  @Test
  void configz_answers_kubes_shape_the_configuration_under_componentconfig() {
    var configuration = SchedulerConfiguration.parse(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
            + "leaderElection: {resourceName: mine}\nprofiles: [{schedulerName: a-sched}]\n",
        "test");
    var response = new ConfigzRoute(configuration).get(new Route.Request("/configz", Map.of(), Optional.empty()));

    assertEquals(200, response.status());
    assertEquals("application/json", response.contentType());
    var body = response.body();
    assertEquals("{\"componentconfig\":" + configuration.toJson() + "}", body);
    for (var part : java.util.List.of("\"apiVersion\":\"kubescheduler.config.k8s.io/v1\"",
        "\"kind\":\"KubeSchedulerConfiguration\"", "\"resourceName\":\"mine\"", "\"schedulerName\":\"a-sched\"")) {
      org.junit.jupiter.api.Assertions.assertTrue(body.contains(part), () -> body + " should contain " + part);
    }
  }
}
