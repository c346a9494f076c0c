package io.kubesched.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.adapter.PodModels.PodModel;
import java.util.ArrayList;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class EffectiveRequestsProperties {

  @Property
  @Label("effective requests agree with a reference model of Kubernetes' rules")
  void effectiveRequestsAgreeWithTheModel(@ForAll("pods") PodModel model) {
    var pod = PodModels.render(model);

    assertEquals(PodModels.expectedRequests(model), PodAdapter.effectiveRequests(pod));
    assertEquals(PodModels.expectedRequests(model), PodAdapter.toPodInfo(pod).requests());

    Statistics.label("sidecars").collect(model.hasSidecar());
    Statistics.label("init container dominates").collect(PodModels.initContainerDominates(model));
    Statistics.label("overhead").collect(!model.overhead().isEmpty());
    Statistics.label("no containers").collect(model.containers().isEmpty());
    Statistics.label("pod-level resources").collect(!model.podLevel().isEmpty());
    Statistics.label("sidecars").coverage(c -> c.check(true).percentage(p -> p >= 15));
    Statistics.label("init container dominates").coverage(c -> c.check(true).percentage(p -> p >= 10));
    Statistics.label("overhead").coverage(c -> c.check(true).percentage(p -> p >= 10));
    Statistics.label("no containers").coverage(c -> c.check(true).percentage(p -> p >= 5));
    Statistics.label("pod-level resources").coverage(c -> c.check(true).percentage(p -> p >= 10));
  }

  @Property
  @Label("starting every sidecar before the other init containers never lowers the requests")
  void startingSidecarsEarlierNeverNeedsLess(@ForAll("pods") PodModel model) {
    var ordinary = model.initContainers().stream().filter(c -> !c.restartable()).toList();
    var sidecars = model.initContainers().stream().filter(PodModels.ContainerModel::restartable).toList();
    // All sidecars first: every ordinary init container then runs beside all of them.
    var sidecarsFirst = new ArrayList<>(sidecars);
    sidecarsFirst.addAll(ordinary);
    var moved = model.withInitContainers(sidecarsFirst);

    var original = PodAdapter.effectiveRequests(PodModels.render(model));
    var reordered = PodAdapter.effectiveRequests(PodModels.render(moved));

    assertEquals(reordered, reordered.max(original), "starting sidecars earlier can only need more");
  }

  @Provide
  Arbitrary<PodModel> pods() {
    return PodModels.pods();
  }
}
