package io.kubesched.informer;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.binder.BindOptions;
import io.kubesched.binder.BindOutcome;
import io.kubesched.binder.Binder;

/**
 * Where the {@link BindingCycle} writes a binding: {@link #toApiServer} in production, a fake in the loop's
 * unit tests. Called on a binding thread, several at once.
 */
@FunctionalInterface
interface BindPort {

  /**
   * Binds {@code pod} to {@code nodeName}.
   *
   * @return how it ended; every expected case is a value, none an exception
   * @throws InterruptedException if the binding thread is interrupted (the loop is closing)
   */
  BindOutcome bind(Pod pod, String nodeName) throws InterruptedException;

  /** @return the port that binds through {@link Binder} with {@code settings}' timeout and mode */
  static BindPort toApiServer(KubernetesClient client, ControllerSettings settings) {
    return (pod, nodeName) ->
        Binder.bind(new BindOptions(client, pod, nodeName, settings.bindTimeout(), settings.bindMode()));
  }
}
