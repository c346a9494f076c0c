package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * What allocating a {@link Device} consumes of a shared {@link CounterSet}: kube's {@code DeviceCounterConsumption}.
 *
 * @param counterSet the name of the counter set in the device's pool
 * @param counters the amount consumed of each counter
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record CounterConsumption(String counterSet, Map<String, Quantity> counters) {
  public CounterConsumption {
    counters = Map.copyOf(counters);
  }
}
