package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One request of a {@link ResourceClaim}: either exact requirements or a prioritized list of alternatives
 * ({@code firstAvailable}), as kube's {@code DeviceRequest}.
 *
 * @param name the request's name, unique in the claim
 * @param exactly the requirements; {@code null} when {@code firstAvailable} is given
 * @param firstAvailable the alternatives, best first; empty when {@code exactly} is given
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record DeviceRequest(String name, @Nullable DeviceRequirements exactly, List<SubRequest> firstAvailable) {

  public DeviceRequest {
    firstAvailable = List.copyOf(firstAvailable);
  }

  /** @return an exact request */
  public static DeviceRequest exactly(String name, DeviceRequirements requirements) {
    return new DeviceRequest(name, requirements, List.of());
  }

  /**
   * One alternative of a prioritized list; allocated under the name {@code request/subRequest}.
   *
   * @param name the sub-request's name, unique in its request
   * @param requirements what it asks for
   */
  public record SubRequest(String name, DeviceRequirements requirements) {}
}
