package io.kubesched.adapter;

import io.kubesched.api.Resources;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BinaryOperator;
import java.util.function.Predicate;

/**
 * A resource list with exact amounts, as Kubernetes adds and compares requests before rounding them once
 * per pod ({@code PodRequests}, then {@code MilliValue()} / {@code Value()}).
 */
final class ExactResources {

  static final ExactResources NONE = new ExactResources(Map.of());

  private final Map<String, BigDecimal> amounts;

  ExactResources(Map<String, BigDecimal> amounts) {
    this.amounts = Map.copyOf(amounts);
  }

  // Each operation returns an operand itself where the result would equal it, amount for amount: most pods have
  // one container and no status, and their requests are otherwise rebuilt map by map for each walk and event.

  ExactResources plus(ExactResources other) {
    if (other.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    return combine(other, BigDecimal::add);
  }

  /** Per resource, the larger amount; amounts are never negative, so a resource one list lacks is the other's. */
  ExactResources max(ExactResources other) {
    if (other == this || other.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    return combine(other, BigDecimal::max);
  }

  /** @return whether this list names {@code resource}, even with an amount of zero */
  boolean names(String resource) {
    return amounts.containsKey(resource);
  }

  /** @return every resource this list names, even with an amount of zero */
  java.util.Set<String> names() {
    return amounts.keySet();
  }

  boolean isEmpty() {
    return amounts.isEmpty();
  }

  /** @return the entries whose resource name passes {@code keep} */
  ExactResources only(Predicate<String> keep) {
    if (amounts.keySet().stream().allMatch(keep)) {
      return this;
    }
    var kept = new HashMap<String, BigDecimal>();
    amounts.forEach(
        (name, amount) -> {
          if (keep.test(name)) {
            kept.put(name, amount);
          }
        });
    return new ExactResources(kept);
  }

  /**
   * @return these amounts plus every entry of {@code defaults} whose resource this list does not name; a
   *     resource named with zero keeps its zero (Kubernetes' {@code NonMissingContainerRequests})
   */
  ExactResources withMissingFrom(ExactResources defaults) {
    if (amounts.keySet().containsAll(defaults.amounts.keySet())) {
      return this;
    }
    var filled = new HashMap<>(amounts);
    defaults.amounts.forEach(filled::putIfAbsent);
    return new ExactResources(filled);
  }

  /** @return these amounts with {@code other}'s put over them, per resource */
  ExactResources overriddenBy(ExactResources other) {
    if (other.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    var merged = new HashMap<>(amounts);
    merged.putAll(other.amounts);
    return new ExactResources(merged);
  }

  /**
   * Rounds each amount up once: CPU to millicores, everything else to whole units. Resources kube-scheduler
   * does not account for (neither CPU, memory, ephemeral storage, pods nor a scalar resource) are dropped.
   *
   * @param pods the pod count to use when this list names none
   */
  Resources toResources(long pods) {
    long milliCpu = 0;
    long memory = 0;
    long ephemeralStorage = 0;
    var extended = new HashMap<String, Long>();
    for (var entry : amounts.entrySet()) {
      var amount = entry.getValue();
      switch (entry.getKey()) {
        case "cpu" -> milliCpu = Quantities.milliValue(amount);
        case "memory" -> memory = Quantities.value(amount);
        case "ephemeral-storage" -> ephemeralStorage = Quantities.value(amount);
        case "pods" -> pods = Quantities.value(amount);
        default -> {
          if (isScalarResource(entry.getKey())) {
            extended.put(entry.getKey(), Quantities.value(amount));
          }
        }
      }
    }
    return new Resources(milliCpu, memory, ephemeralStorage, pods, extended);
  }

  /**
   * Whether kube-scheduler accounts for a resource beyond CPU, memory, storage and pods: extended
   * resources (a domain-qualified name such as {@code nvidia.com/gpu}), hugepages, attachable volumes.
   */
  static boolean isScalarResource(String name) {
    return name.contains("/") || name.startsWith("hugepages-") || name.startsWith("attachable-volumes-");
  }

  private ExactResources combine(ExactResources other, BinaryOperator<BigDecimal> op) {
    var merged = new HashMap<String, BigDecimal>();
    for (var name : amounts.keySet()) {
      merged.put(name, op.apply(amounts.get(name), other.amounts.getOrDefault(name, BigDecimal.ZERO)));
    }
    for (var name : other.amounts.keySet()) {
      merged.computeIfAbsent(name, n -> op.apply(BigDecimal.ZERO, other.amounts.get(n)));
    }
    return new ExactResources(merged);
  }
}
