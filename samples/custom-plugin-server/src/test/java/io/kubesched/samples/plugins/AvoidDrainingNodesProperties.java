package io.kubesched.samples.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.FilterResult;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

/** The filter against a model: a node is refused exactly when its drain label has a draining value. */
class AvoidDrainingNodesProperties {

  private static final List<String> LABELS = List.of("lifecycle.example.com/state", "example.com/drain", "zone");
  private static final List<String> VALUES = List.of("draining", "retiring", "ready", "");

  @Provide
  Arbitrary<DrainingArgs> args() {
    var label = Arbitraries.of(LABELS).injectNull(0.3);
    var values = Arbitraries.of(VALUES).filter(v -> !v.isEmpty()).list().ofMinSize(1).ofMaxSize(3).injectNull(0.3);
    return Combinators.combine(label, values).as(DrainingArgs::new);
  }

  @Provide
  Arbitrary<Map<String, String>> labels() {
    return Arbitraries.maps(Arbitraries.of(LABELS), Arbitraries.of(VALUES)).ofMaxSize(3);
  }

  @Property
  void a_node_is_refused_exactly_when_its_drain_label_has_a_draining_value_whatever_the_pod(
      @ForAll("args") DrainingArgs args,
      @ForAll("labels") Map<String, String> labels,
      @ForAll("pods") PodInfo pod) {
    var value = labels.get(args.label());
    boolean draining = value != null && args.values().contains(value);
    Statistics.label("node").collect(draining ? "draining" : "not draining");
    Statistics.label("node").coverage(c -> {
      c.check("draining").percentage(p -> p > 10);
      c.check("not draining").percentage(p -> p > 10);
    });

    var result = new AvoidDrainingNodes(args).filter(pod, NodeInfo.builder("n").labels(labels).build());

    var expected = draining
        ? FilterResult.unresolvable(new AvoidDrainingNodes.NodeDraining(args.label(), value))
        : FilterResult.fit();
    assertEquals(expected, result);
  }

  @Provide
  Arbitrary<PodInfo> pods() {
    return Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(5)
        .map(name -> PodInfo.builder("ns", name).build());
  }

  @Provide
  Arbitrary<String> maybeLabel() {
    return Arbitraries.of(LABELS).injectNull(0.5);
  }

  @Provide
  Arbitrary<List<String>> maybeValues() {
    return Arbitraries.of("draining", "retiring", "gone").list().ofMinSize(1).ofMaxSize(3).injectNull(0.5);
  }

  @Property
  void a_field_left_out_gets_its_default_and_one_given_is_kept(
      @ForAll("maybeLabel") @Nullable String label, @ForAll("maybeValues") @Nullable List<String> values) {
    var args = new DrainingArgs(label, values);
    assertEquals(label == null ? DrainingArgs.DEFAULT_LABEL : label, args.label());
    assertEquals(values == null ? DrainingArgs.DEFAULT_VALUES : values, args.values());
  }
}
