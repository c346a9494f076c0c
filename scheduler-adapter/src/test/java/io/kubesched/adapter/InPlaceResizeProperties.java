package io.kubesched.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.kubesched.adapter.PodModels.PodModel;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** In-place resize in {@link PodAdapter#effectiveRequests}, over the pods of {@link PodModels}. */
class InPlaceResizeProperties {

  /** A pod, and a factor per container by which its status scales the spec's requests. */
  record Resized(PodModel model, List<BigDecimal> factors, boolean infeasible) {}

  private static final List<BigDecimal> FACTORS =
      List.of(BigDecimal.ZERO, new BigDecimal("0.5"), BigDecimal.ONE, BigDecimal.valueOf(2));

  /** The spec's requests as the API server stores them (an unset request is its limit), times {@code factor}. */
  private static Map<String, Quantity> scaled(Container container, BigDecimal factor) {
    var resources = container.getResources();
    var requests = new HashMap<String, Quantity>();
    if (resources != null) {
      requests.putAll(PodAdapter.orEmpty(resources.getLimits()));
      requests.putAll(PodAdapter.orEmpty(resources.getRequests()));
    }
    var result = new HashMap<String, Quantity>();
    requests.forEach(
        (name, q) ->
            result.put(
                name, new Quantity(Quantity.getAmountInBytes(q).multiply(factor).stripTrailingZeros().toPlainString())));
    return result;
  }

  /** {@code pod} with statuses whose allocated and actuated requests are each container's scaled by its factor. */
  private static Pod withStatus(Pod pod, List<BigDecimal> factors, boolean infeasible) {
    var all = new ArrayList<Container>(pod.getSpec().getContainers());
    all.addAll(pod.getSpec().getInitContainers());
    var statuses = new ArrayList<ContainerStatus>();
    var initStatuses = new ArrayList<ContainerStatus>();
    for (int i = 0; i < all.size(); i++) {
      var container = all.get(i);
      var requests = scaled(container, factors.get(i % factors.size()));
      var status =
          new ContainerStatusBuilder()
              .withName(container.getName())
              .withAllocatedResources(requests)
              .withNewResources()
              .withRequests(requests)
              .endResources()
              .build();
      (i < pod.getSpec().getContainers().size() ? statuses : initStatuses).add(status);
    }
    var conditions = new ArrayList<PodCondition>();
    if (infeasible) {
      conditions.add(
          new PodConditionBuilder().withType("PodResizePending").withStatus("True").withReason("Infeasible").build());
    }
    var status = new PodStatus();
    status.setContainerStatuses(statuses);
    status.setInitContainerStatuses(initStatuses);
    status.setConditions(conditions);
    pod.setStatus(status);
    return pod;
  }

  @Property
  @Label("a status that reports each container's spec changes nothing, resize infeasible or not")
  void aStatusEqualToTheSpecChangesNothing(@ForAll("resized") Resized resized) {
    var spec = PodAdapter.effectiveRequests(PodModels.render(resized.model()));
    var ones = resized.factors().stream().map(f -> BigDecimal.ONE).toList();

    assertEquals(
        spec, PodAdapter.effectiveRequests(withStatus(PodModels.render(resized.model()), ones, resized.infeasible())));

    Statistics.label("infeasible").collect(resized.infeasible());
    Statistics.label("infeasible").coverage(c -> c.check(true).percentage(p -> p >= 20));
  }

  @Property
  @Label("unless a resize is infeasible, a pod never counts less than its spec, and more where its status says more")
  void neverBelowTheSpecUnlessInfeasible(@ForAll("resized") Resized resized) {
    var pod = PodModels.render(resized.model());
    var spec = PodAdapter.effectiveRequests(pod);
    var resizedPod = withStatus(PodModels.render(resized.model()), resized.factors(), resized.infeasible());
    var withStatus = PodAdapter.effectiveRequests(resizedPod);

    if (!resized.infeasible()) {
      assertEquals(withStatus, withStatus.max(spec), "the spec's requests are a floor");
    }
    var above = !withStatus.max(spec).equals(spec);
    var below = !withStatus.max(spec).equals(withStatus);
    Statistics.label("counts more than the spec").collect(above);
    Statistics.label("infeasible, counts less than the spec").collect(resized.infeasible() && below);
    Statistics.label("counts more than the spec").coverage(c -> c.check(true).percentage(p -> p >= 20));
    Statistics.label("infeasible, counts less than the spec")
        .coverage(c -> c.check(true).percentage(p -> p >= 5));
  }

  @Provide
  Arbitrary<Resized> resized() {
    return Combinators.combine(
            PodModels.pods(), Arbitraries.of(FACTORS).list().ofMinSize(1).ofMaxSize(6), Arbitraries.of(true, false))
        .as(Resized::new);
  }
}
