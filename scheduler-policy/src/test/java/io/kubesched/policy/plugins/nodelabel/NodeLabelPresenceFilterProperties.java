package io.kubesched.policy.plugins.nodelabel;

import static io.kubesched.policy.plugins.FilterFixtures.nodeLabelled;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.plugins.FilterFixtures;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class NodeLabelPresenceFilterProperties {

  @Property
  @Label("presence: the labels are a subset of the node's keys; absence: they are disjoint from them")
  void presenceIsSubsetAbsenceIsDisjoint(
      @ForAll("labelLists") List<String> labels,
      @ForAll boolean presence,
      @ForAll("labelMaps") Map<String, String> nodeLabels) {
    var result = new NodeLabelPresenceFilter(labels, presence).filter(pod().build(), nodeLabelled(nodeLabels));

    boolean expected =
        presence
            ? nodeLabels.keySet().containsAll(labels)
            : labels.stream().noneMatch(nodeLabels.keySet()::contains);
    assertEquals(expected, result.fits());
    if (!expected) {
      assertEquals(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, result.code());
    }
    Statistics.label("presence, fits").collect(presence, result.fits());
    Statistics.label("presence, fits")
        .coverage(
            c -> {
              c.check(true, true).count(n -> n > 0);
              c.check(true, false).count(n -> n > 0);
              c.check(false, true).count(n -> n > 0);
              c.check(false, false).count(n -> n > 0);
            });
  }

  @Property
  @Label("no node passes both presence and absence of the same labels")
  void presenceAndAbsenceExcludeEachOther(
      @ForAll("labelLists") List<String> labels, @ForAll("labelMaps") Map<String, String> nodeLabels) {
    var node = nodeLabelled(nodeLabels);

    boolean present = new NodeLabelPresenceFilter(labels, true).filter(pod().build(), node).fits();
    boolean absent = new NodeLabelPresenceFilter(labels, false).filter(pod().build(), node).fits();

    assertFalse(present && absent);
    Statistics.label("passes").collect(present ? "presence" : absent ? "absence" : "neither");
    Statistics.label("passes")
        .coverage(
            c -> {
              c.check("presence").count(n -> n > 0);
              c.check("absence").count(n -> n > 0);
              c.check("neither").count(n -> n > 0);
            });
  }

  @Property
  @Label("the order and repetition of the labels do not matter")
  void orderDoesNotMatter(
      @ForAll("labelLists") List<String> labels,
      @ForAll boolean presence,
      @ForAll("labelMaps") Map<String, String> nodeLabels) {
    var reversed = new ArrayList<>(labels);
    Collections.reverse(reversed);
    reversed.addAll(labels);
    var node = nodeLabelled(nodeLabels);

    assertEquals(
        new NodeLabelPresenceFilter(labels, presence).filter(pod().build(), node).fits(),
        new NodeLabelPresenceFilter(reversed, presence).filter(pod().build(), node).fits());
  }

  @Provide
  Arbitrary<List<String>> labelLists() {
    return Arbitraries.of("a", "b", "c").list().ofMinSize(1).ofMaxSize(2);
  }

  @Provide
  Arbitrary<Map<String, String>> labelMaps() {
    return FilterFixtures.labelMaps();
  }
}
