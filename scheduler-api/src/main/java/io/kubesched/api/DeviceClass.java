package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * An admin's class of devices: kube's {@code DeviceClass}.
 *
 * @param name the class's name
 * @param selectors the CEL expressions every device of the class must satisfy
 * @param config configuration passed to drivers for devices allocated through the class
 * @param extendedResourceName the extended resource a pod may request to get a device of this class (kube's
 *     extended resources backed by DRA); {@code null} when none
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record DeviceClass(
    String name, List<String> selectors, List<OpaqueConfig> config, @Nullable String extendedResourceName) {

  public DeviceClass {
    selectors = List.copyOf(selectors);
    config = List.copyOf(config);
  }
}
