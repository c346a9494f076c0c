package io.kubesched.k8s;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.fabric8.SiblingClients;

/**
 * A client and what it talks to.
 *
 * @param client the client handed to users; closed with this connection if {@code ownsClient}
 * @param schedulingClient the client the scheduling loop talks through: the HTTP client and configuration of
 *     the connection's own user client (a copy of an application's configuration where {@code client} is the
 *     application's), decoding without managedFields and knowing only the kinds the loop reads (see {@code
 *     SchedulingClients}); closed with this connection
 * @param bindingClient the client the scheduling loop makes every write through (bindings, volume bindings,
 *     preemption, events, pod conditions, pod group status): {@code schedulingClient}'s configuration and
 *     serialization over an HTTP client that runs each request on the calling thread ({@code
 *     BlockingHttpClient}); {@code schedulingClient} itself where the connection was not built from a
 *     configuration (the fake cluster); closed with this connection
 * @param fake true if {@code client} talks to the embedded fake cluster (which stores a Binding without
 *     assigning the pod), so callers can choose how to bind without guessing
 * @param onClose what else to release on close (the fake server, the clients made beside an application's),
 *     after the clients
 * @param ownsClient false where {@code client} is the application's ({@link KubeConnections#sharing}): it is then
 *     never closed here
 */
public record KubeConnection(
    KubernetesClient client,
    KubernetesClient schedulingClient,
    KubernetesClient bindingClient,
    boolean fake,
    Runnable onClose,
    boolean ownsClient)
    implements AutoCloseable {

  /** A connection whose scheduling client, which also binds, is made from {@code client}, which it owns. */
  public KubeConnection(KubernetesClient client, boolean fake, Runnable onClose) {
    this(client, SiblingClients.of(client, SchedulingClients.serialization()), fake, onClose);
  }

  private KubeConnection(
      KubernetesClient client, KubernetesClient schedulingClient, boolean fake, Runnable onClose) {
    this(client, schedulingClient, schedulingClient, fake, onClose, true);
  }

  /**
   * This connection's scheduling and binding clients behind {@code application}'s client: users get {@code
   * application}, which closing this connection leaves open; this connection's own user client is closed with
   * it.
   */
  KubeConnection lending(KubernetesClient application) {
    var own = client;
    return new KubeConnection(application, schedulingClient, bindingClient, fake, () -> {
      try {
        own.close();
      } finally {
        onClose.run();
      }
    }, false);
  }

  /** Closes the clients, then whatever else this connection holds. */
  @Override
  public void close() {
    try {
      try {
        if (bindingClient != schedulingClient) {
          bindingClient.close();
        }
      } finally {
        try {
          schedulingClient.close();
        } finally {
          if (ownsClient) {
            client.close();
          }
        }
      }
    } finally {
      onClose.run();
    }
  }
}
