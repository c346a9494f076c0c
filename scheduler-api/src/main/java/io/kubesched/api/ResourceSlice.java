package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * Devices a driver published: kube's {@code ResourceSlice}, with the fields the scheduler reads.
 *
 * @param name the slice's name
 * @param driver the driver's name
 * @param pool the pool it belongs to
 * @param nodeSelection which nodes reach its devices; {@link NodeSelection#NONE} when {@code
 *     perDeviceNodeSelection} is set
 * @param perDeviceNodeSelection whether each device says which nodes reach it
 * @param devices its devices
 * @param sharedCounters the counters its devices consume (partitionable devices)
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ResourceSlice(
    String name,
    String driver,
    ResourcePool pool,
    NodeSelection nodeSelection,
    boolean perDeviceNodeSelection,
    List<Device> devices,
    List<CounterSet> sharedCounters) {

  public ResourceSlice {
    devices = List.copyOf(devices);
    sharedCounters = List.copyOf(sharedCounters);
  }
}
