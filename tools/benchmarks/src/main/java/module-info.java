/**
 * JMH benchmarks of the policy engine. Not a library: nothing else requires this module.
 *
 * <p>{@code jmh.core} is an automatic module (jmh-core 1.37 names none). The package JMH's annotation
 * processor generates is exported because the runner loads its classes reflectively. The benchmarks normally
 * run from the shaded {@code benchmarks.jar} on the class path, where this descriptor is not read; on the
 * module path they also need {@code --add-modules jdk.unsupported}, which jmh-core uses without declaring
 * it.
 */
module io.kubesched.benchmarks {
  requires static org.jspecify;
  requires io.kubesched.policy;
  requires io.kubesched.simulation; // SimulationBenchmark
  requires jmh.core;
  // HeapMeasurement: informer caches filled with parsed fabric8 objects.
  requires io.kubesched.adapter;
  requires io.kubesched.informer;
  requires io.kubesched.engine; // DeviceHeapMeasurement: the DeviceCache
  requires kubernetes.model.resource;
  requires kubernetes.client;
  requires kubernetes.client.api;
  requires kubernetes.model.common;
  requires kubernetes.model.core;
  requires java.management;

  exports io.kubesched.benchmarks;
  exports io.kubesched.benchmarks.jmh_generated;
}
