package io.kubesched.fabric8;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.impl.KubernetesClientImpl;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * Clients that decode with a serialization of the library's choosing over an HTTP client that already exists. The
 * scheduling loop and the SchedulingPolicy controller talk through such a sibling of the user's client: the same
 * connections, authentication and retries, but a serialization that knows only the kinds it reads ({@link
 * Fabric8Compat#leanSerialization}), so that a watch event never makes fabric8's default serialization load every
 * model class it lists.
 *
 * <p>Thread-safe; stateless. Internal: not for use outside the library.
 */
public final class SiblingClients {

  private SiblingClients() {}

  /**
   * @return a client over {@code client}'s HTTP client and configuration with {@code serialization}; closing either
   *     client closes the HTTP client of both
   */
  public static KubernetesClient of(KubernetesClient client, KubernetesSerialization serialization) {
    return over(client.getHttpClient(), client.getConfiguration(), serialization);
  }

  /**
   * What {@code KubernetesClientBuilder.build()} does, with a given HTTP client (its factory can only make new ones)
   * and fabric8's default task executor.
   *
   * @return a client over {@code http} with {@code config} and {@code serialization}; closing it closes {@code http}
   */
  public static KubernetesClient over(HttpClient http, Config config, KubernetesSerialization serialization) {
    return new KubernetesClientImpl(http, config, null, serialization);
  }
}
