package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * Counters a {@link ResourceSlice} shares among its devices (partitionable devices): kube's {@code CounterSet}.
 *
 * @param name the set's name, unique in the slice's pool
 * @param counters the amount of each counter
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record CounterSet(String name, Map<String, Quantity> counters) {
  public CounterSet {
    counters = Map.copyOf(counters);
  }
}
