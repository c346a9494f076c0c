package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * One consumer a claim is reserved for: kube's {@code ResourceClaimConsumerReference} ({@code resource: pods}
 * and an empty group for a pod).
 *
 * @param apiGroup the consumer's API group, empty for the core group
 * @param resource the consumer's resource, e.g. {@code pods}
 * @param name its name
 * @param uid its uid
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ConsumerRef(String apiGroup, String resource, String name, String uid) {

  /** @return a reference to a pod */
  public static ConsumerRef pod(String name, String uid) {
    return new ConsumerRef("", "pods", name, uid);
  }

  /** @return whether it names a pod */
  public boolean isPod() {
    return apiGroup.isEmpty() && resource.equals("pods");
  }
}
