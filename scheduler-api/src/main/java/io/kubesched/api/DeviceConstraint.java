package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A constraint across the devices of some requests of a claim: kube's {@code DeviceConstraint}.
 *
 * @param requests the requests (or {@code request/subRequest}s) it applies to; empty for all of the claim's
 * @param matchAttribute the fully qualified attribute all those devices must have with the same value; {@code
 *     null} unless that is the constraint
 * @param distinctAttribute the fully qualified attribute all those devices must have with different values;
 *     {@code null} unless that is the constraint
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record DeviceConstraint(
    List<String> requests, @Nullable String matchAttribute, @Nullable String distinctAttribute) {
  public DeviceConstraint {
    requests = List.copyOf(requests);
  }
}
