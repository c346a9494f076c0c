package io.kubesched.policy.plugins.nodename;

import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.policy.framework.FilterResult.Code;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class NodeNameFilterProperties {

  private final NodeNameFilter filter = new NodeNameFilter();

  @Property
  @Label("a pod fits exactly the nodes it does not name another node for")
  void fitsWhenUnnamedOrSameName(@ForAll("names") String podNodeName, @ForAll("names") String nodeName) {
    var result = filter.filter(pod().nodeName(podNodeName).build(), node(nodeName).build());

    boolean expected = podNodeName.isEmpty() || podNodeName.equals(nodeName);
    assertEquals(expected, result.fits());
    if (!expected) {
      assertEquals(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, result.code());
    }
    Statistics.label("case")
        .collect(podNodeName.isEmpty() ? "pod names no node" : expected ? "same node" : "other node");
    Statistics.label("case")
        .coverage(
            c -> {
              c.check("pod names no node").count(n -> n > 0);
              c.check("same node").count(n -> n > 0);
              c.check("other node").count(n -> n > 0);
            });
  }

  @Property
  @Label("of nodes with distinct names, a pod naming one of them fits exactly one")
  void aNamedPodFitsOneNodeAmongDistinctNames(@ForAll("names") String podNodeName) {
    long fitting =
        Stream.of("", "n1", "n2", "N1")
            .filter(name -> filter.filter(pod().nodeName(podNodeName).build(), node(name).build()).fits())
            .count();

    assertTrue(podNodeName.isEmpty() ? fitting == 4 : fitting == 1);
  }

  @Provide
  Arbitrary<String> names() {
    return Arbitraries.of("", "n1", "n2", "N1");
  }
}
