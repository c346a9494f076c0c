package io.kubesched.server;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.FinderFunc;
import io.kubesched.crd.SchedulingPolicyController;
import io.kubesched.facade.Client;
import io.kubesched.facade.Controller;
import io.kubesched.policy.config.PluginRegistry;
import java.util.Map;

/** The one place the SchedulingPolicy controller (module {@code scheduler-crd}) is wired into the server. */
final class SchedulingPolicies {

  private SchedulingPolicies() {}

  /**
   * Lists the SchedulingPolicy custom resources and applies them, then follows their changes: each valid one
   * replaces its profile's policy in {@code controller}; deleting it restores the configuration file's.
   *
   * @param client the connection to watch with
   * @param controller the controller whose profiles the resources change
   * @param profiles the configuration file's profiles, which a deleted SchedulingPolicy restores
   * @param plugins the plugins of one's own a SchedulingPolicy may enable
   * @return what stops the watch
   * @throws ConfigurationException if the API server does not serve SchedulingPolicies (the
   *     CRD is not installed) or this identity may not list them
   * @throws io.kubesched.api.SchedulerException if they cannot be listed in time
   */
  static AutoCloseable watch(
      Client client, Controller controller, Map<String, FinderFunc> profiles, PluginRegistry plugins) {
    var policies = new SchedulingPolicyController(client.kubernetesClient(), controller, profiles, plugins);
    try {
      policies.start();
    } catch (ConfigurationException e) {
      throw new ConfigurationException(e.getMessage() + " (kubesched-server: --no-policy-crd)", e);
    }
    return policies;
  }
}
