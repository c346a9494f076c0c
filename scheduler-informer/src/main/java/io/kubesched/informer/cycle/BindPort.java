package io.kubesched.informer.cycle;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.binder.BindMode;
import io.kubesched.binder.BindOptions;
import io.kubesched.binder.BindOutcome;
import io.kubesched.binder.Binder;
import java.time.Duration;

/**
 * Where the {@link BindingCycle} writes a binding: {@link #toApiServer} in production, a fake in the loop's
 * unit tests. Called on a binding thread, several at once.
 */
@FunctionalInterface
public interface BindPort {

  /**
   * Binds {@code pod} to {@code nodeName}.
   *
   * @return how it ended; every expected case is a value, none an exception
   * @throws InterruptedException if the binding thread is interrupted (the loop is closing)
   */
  BindOutcome bind(Pod pod, String nodeName) throws InterruptedException;

  /** @return the port that binds through {@link Binder}, each request taking at most {@code timeout} */
  static BindPort toApiServer(KubernetesClient client, Duration timeout, BindMode mode) {
    return (pod, nodeName) -> Binder.bind(new BindOptions(client, pod, nodeName, timeout, mode));
  }
}
