package io.kubesched.adapter;

import io.fabric8.kubernetes.api.model.Quantity;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.Resources;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A Kubernetes {@code ResourceList} (resource name to quantity) to {@link Resources}. */
final class ResourceLists {

  private ResourceLists() {}

  /**
   * @param list the resource list, {@code null} or empty for none
   * @param object the owning object for error messages, e.g. {@code pod default/web}
   * @param field the list's path for error messages, e.g. {@code spec.containers[app].resources.requests}
   * @throws MalformedObjectException naming {@code object}, the entry's field and its value, if a quantity
   *     is malformed or negative
   */
  static Resources toResources(@Nullable Map<String, Quantity> list, String object, String field) {
    if (list == null || list.isEmpty()) {
      return Resources.ZERO;
    }
    long milliCpu = 0;
    long memory = 0;
    long ephemeralStorage = 0;
    long pods = 0;
    var extended = new HashMap<String, Long>();
    for (var entry : list.entrySet()) {
      var name = entry.getKey();
      var text = text(entry.getValue());
      try {
        switch (name) {
          case "cpu" -> milliCpu = Quantities.milliValue(text);
          case "memory" -> memory = Quantities.value(text);
          case "ephemeral-storage" -> ephemeralStorage = Quantities.value(text);
          case "pods" -> pods = Quantities.value(text);
          default -> {
            if (isScalarResource(name)) {
              extended.put(name, Quantities.value(text));
            }
          }
        }
      } catch (IllegalArgumentException e) {
        throw new MalformedObjectException(object, field + "[" + name + "]", text, e.getMessage(), e);
      }
    }
    return new Resources(milliCpu, memory, ephemeralStorage, pods, extended);
  }

  /**
   * @param limits a container's limits
   * @param requests the same container's requests
   * @return the requests as the API server defaults them: a resource with a limit and no request requests
   *     its limit
   */
  static @Nullable Map<String, Quantity> defaultedRequests(
      @Nullable Map<String, Quantity> limits, @Nullable Map<String, Quantity> requests) {
    if (limits == null || limits.isEmpty()) {
      return requests;
    }
    var defaulted = new HashMap<>(limits);
    if (requests != null) {
      defaulted.putAll(requests);
    }
    return defaulted;
  }

  /**
   * Whether kube-scheduler accounts for a resource beyond CPU, memory, storage and pods: extended
   * resources (a domain-qualified name such as {@code nvidia.com/gpu}), hugepages, attachable volumes.
   */
  static boolean isScalarResource(String name) {
    return name.contains("/") || name.startsWith("hugepages-") || name.startsWith("attachable-volumes-");
  }

  private static String text(@Nullable Quantity quantity) {
    if (quantity == null) {
      return "";
    }
    var amount = quantity.getAmount() == null ? "" : quantity.getAmount();
    var format = quantity.getFormat() == null ? "" : quantity.getFormat();
    return amount + format;
  }
}
