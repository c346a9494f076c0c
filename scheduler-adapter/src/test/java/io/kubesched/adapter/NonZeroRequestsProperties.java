package io.kubesched.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.adapter.PodModels.PodModel;
import io.kubesched.api.Resources;
import java.util.stream.Stream;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** {@link PodAdapter#nonZeroRequests} over the pods of {@link PodModels}. */
class NonZeroRequestsProperties {

  @Property
  @Label("non-zero requests are the requests of the pod with kube-scheduler's defaults filled in")
  void nonZeroRequestsAreTheRequestsWithTheDefaultsFilledIn(@ForAll("pods") PodModel model) {
    var pod = PodModels.render(model);

    var expected = PodModels.expectedRequests(PodModels.withScoringDefaults(model));
    assertEquals(expected, PodAdapter.nonZeroRequests(pod));
    assertEquals(expected, PodAdapter.toPodInfo(pod).nonZeroRequests());

    collectContainerKinds(model);
    Statistics.label("pod-level resources").collect(!model.podLevel().isEmpty());
    Statistics.label("every container names cpu and memory")
        .coverage(
            c -> {
              c.check(true).percentage(p -> p >= 10);
              c.check(false).percentage(p -> p >= 30);
            });
    Statistics.label("a container names neither").coverage(c -> c.check(true).percentage(p -> p >= 10));
    Statistics.label("pod-level resources").coverage(c -> c.check(true).percentage(p -> p >= 10));
  }

  @Property
  @Label("non-zero requests are never below the requests for CPU and memory, and equal for the rest")
  void nonZeroRequestsAreNeverBelowTheRequests(@ForAll("pods") PodModel model) {
    var pod = PodModels.render(model);
    var requests = PodAdapter.effectiveRequests(pod);
    var nonZero = PodAdapter.nonZeroRequests(pod);

    assertTrue(nonZero.milliCpu() >= requests.milliCpu(), () -> nonZero + " < " + requests);
    assertTrue(nonZero.memory() >= requests.memory(), () -> nonZero + " < " + requests);
    assertEquals(otherThanCpuAndMemory(requests), otherThanCpuAndMemory(nonZero));

    collectContainerKinds(model);
    Statistics.label("cpu raised").collect(nonZero.milliCpu() > requests.milliCpu());
    Statistics.label("memory raised").collect(nonZero.memory() > requests.memory());
    Statistics.label("cpu raised")
        .coverage(
            c -> {
              c.check(true).percentage(p -> p >= 20);
              c.check(false).percentage(p -> p >= 20);
            });
    Statistics.label("memory raised")
        .coverage(
            c -> {
              c.check(true).percentage(p -> p >= 20);
              c.check(false).percentage(p -> p >= 20);
            });
  }

  @Property
  @Label("non-zero requests equal the requests when every container names CPU and memory")
  void nonZeroRequestsEqualTheRequestsWhenEveryContainerNamesBoth(@ForAll("pods") PodModel model) {
    var pod = PodModels.render(model);
    boolean everyContainerNamesBoth = model.everyContainerNamesCpuAndMemory();

    if (everyContainerNamesBoth) {
      assertEquals(PodAdapter.effectiveRequests(pod), PodAdapter.nonZeroRequests(pod));
    }

    Statistics.label("every container names cpu and memory").collect(everyContainerNamesBoth);
    Statistics.label("with containers").collect(!model.containers().isEmpty() || !model.initContainers().isEmpty());
    Statistics.label("every container names cpu and memory")
        .coverage(
            c -> {
              c.check(true).percentage(p -> p >= 10);
              c.check(false).count(n -> n > 0);
            });
    Statistics.label("with containers").coverage(c -> c.check(true).percentage(p -> p >= 80));
  }

  /** Pods whose containers all ask for CPU and memory, pods with a container that asks for neither. */
  private static void collectContainerKinds(PodModel model) {
    Statistics.label("every container names cpu and memory").collect(model.everyContainerNamesCpuAndMemory());
    boolean neither =
        Stream.concat(model.containers().stream(), model.initContainers().stream())
            .anyMatch(c -> !c.names(PodModels.CPU) && !c.names(PodModels.MEMORY));
    Statistics.label("a container names neither").collect(neither);
  }

  private static Resources otherThanCpuAndMemory(Resources r) {
    return new Resources(0, 0, r.ephemeralStorage(), r.pods(), r.extended());
  }

  @Provide
  Arbitrary<PodModel> pods() {
    return PodModels.pods();
  }
}
