package io.kubesched.k8s;

import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A client and what it talks to.
 *
 * @param client the client; closed with this connection
 * @param fake true if {@code client} talks to the embedded fake cluster (which stores a Binding without
 *     assigning the pod), so callers can choose how to bind without guessing
 * @param onClose what else to release on close (the fake server), after the client
 */
public record KubeConnection(KubernetesClient client, boolean fake, Runnable onClose)
    implements AutoCloseable {

  /** Closes the client, then whatever else this connection holds. */
  @Override
  public void close() {
    try {
      client.close();
    } finally {
      onClose.run();
    }
  }
}
