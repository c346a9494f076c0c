package io.kubesched.binder;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;

/**
 * One binding to make.
 *
 * @param client the client to write with
 * @param pod the pod as last seen; its namespace, name and uid identify it (a pod created again under the
 *     same name is not bound)
 * @param nodeName the node to bind it to
 * @param timeout how long each request may take
 * @param mode how to write the binding
 */
public record BindOptions(
    KubernetesClient client, Pod pod, String nodeName, Duration timeout, BindMode mode) {

  /**
   * @throws IllegalArgumentException if the pod has no namespace, name or uid, the node name is blank, or
   *     the timeout is not positive
   */
  public BindOptions {
    var meta = pod.getMetadata();
    if (meta == null) {
      throw new IllegalArgumentException("pod to bind has no metadata");
    }
    for (var field : new String[][] {
      {"namespace", meta.getNamespace()}, {"name", meta.getName()}, {"uid", meta.getUid()}
    }) {
      if (isBlank(field[1])) {
        throw new IllegalArgumentException(
            "pod to bind (" + meta.getNamespace() + "/" + meta.getName() + ") has no metadata." + field[0]);
      }
    }
    if (nodeName.isBlank()) {
      throw new IllegalArgumentException(
          "nodeName must not be blank for pod " + meta.getNamespace() + "/" + meta.getName());
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, was " + timeout);
    }
  }

  /** @return {@code namespace/name} of the pod */
  public String podKey() {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }

  private static boolean isBlank(String value) {
    return value == null || value.isBlank();
  }
}
