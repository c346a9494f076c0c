package io.kubesched.policy.plugins.nodeaffinity;

import static io.kubesched.policy.plugins.FilterFixtures.concat;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.NodeAffinity;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.Policy;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.plugins.FilterFixtures;
import io.kubesched.policy.plugins.helper.NodeSelectors;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class NodeAffinityFilterProperties {

  private static final String ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";

  private final NodeAffinityFilter filter = new NodeAffinityFilter();

  @Property
  @Label("without affinity, a pod fits iff the node's labels contain its node selector")
  void nodeSelectorIsASubsetOfTheLabels(
      @ForAll("labelMaps") Map<String, String> selector, @ForAll("labelMaps") Map<String, String> labels) {
    var result = filter.filter(pod().nodeSelector(selector).build(), node("n1", labels));

    boolean expected = labels.entrySet().containsAll(selector.entrySet());
    assertEquals(expected, result.fits());
    if (!expected) {
      assertEquals(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, result.code());
    }
    Statistics.label("fits").collect(result.fits());
    Statistics.label("fits")
        .coverage(
            c -> {
              c.check(true).percentage(p -> p > 10);
              c.check(false).percentage(p -> p > 10);
            });
  }

  @Property
  @Label("one more required term never rejects a node, one more selector label never admits one")
  void termsWidenSelectorsNarrow(
      @ForAll("pods") PodInfo pod,
      @ForAll("nodes") NodeInfo node,
      @ForAll("terms") NodeSelectorTerm term,
      @ForAll("labelMaps") Map<String, String> moreSelector) {
    boolean fits = filter.filter(pod, node).fits();
    var required = pod.affinity().required();
    var widened =
        pod.toBuilder()
            .affinity(new NodeAffinity(concat(required, List.of(term)), List.of()))
            .build();
    var selector = new HashMap<>(moreSelector);
    selector.putAll(pod.nodeSelector());
    var narrowed = pod.toBuilder().nodeSelector(selector).build();

    // A pod with no required term had no affinity: its first term restricts rather than widens.
    if (!required.isEmpty()) {
      assertTrue(!fits || filter.filter(widened, node).fits());
    }
    assertTrue(fits || !filter.filter(narrowed, node).fits());
    Statistics.label("fits").collect(fits);
    Statistics.label("fits").coverage(c -> {
      c.check(true).count(n -> n > 0);
      c.check(false).count(n -> n > 0);
    });
  }

  @Property
  @Label("added affinity rejects exactly the nodes that match none of its terms, before the pod's own rules")
  void addedAffinityNarrows(
      @ForAll("pods") PodInfo pod,
      @ForAll("nodes") NodeInfo node,
      @ForAll("termLists") List<NodeSelectorTerm> added) {
    var result = new NodeAffinityFilter(added).filter(pod, node);

    boolean addedMatches = added.isEmpty() || added.stream().anyMatch(t -> NodeSelectors.matches(t, node));
    assertEquals(addedMatches && filter.filter(pod, node).fits(), result.fits());
    if (!addedMatches) {
      assertEquals(
          List.of("node(s) didn't match scheduler-enforced node affinity"),
          FilterFixtures.Outcome.of(result).messages());
    }
    Statistics.label("outcome")
        .collect(result.fits() ? "fits" : addedMatches ? "pod's rules" : "added affinity");
    Statistics.label("outcome")
        .coverage(
            c -> {
              c.check("fits").count(n -> n > 0);
              c.check("pod's rules").count(n -> n > 0);
              c.check("added affinity").count(n -> n > 0);
            });
  }

  @Property
  @Label("only the node's name and labels matter")
  void onlyNameAndLabelsMatter(@ForAll("pods") PodInfo pod, @ForAll("fullNodes") NodeInfo node) {
    assertEquals(filter.filter(pod, node(node.name(), node.labels())).fits(), filter.filter(pod, node).fits());
  }

  @Property
  @Label("preparing the filter first, as kube's PreFilter, gives the same outcome as filtering directly")
  void preparedAgreesWithUnprepared(
      @ForAll("selectorsAndAffinities") PodInfo pod,
      @ForAll("nodes") NodeInfo node,
      @ForAll("termLists") List<NodeSelectorTerm> added) {
    var unprepared = new NodeAffinityFilter(added);
    var prepared = unprepared.prepare(pod, ClusterSnapshot.of(List.of(node)));

    var outcome = FilterFixtures.Outcome.of(prepared.filter(pod, node));
    assertEquals(FilterFixtures.Outcome.of(unprepared.filter(pod, node)), outcome);
    assertEquals(NodeAffinityFilter.NAME, prepared.name());
    Statistics.label("prepared").collect(prepared instanceof PreFilter.Skipped ? "skipped" : "kept");
    Statistics.label("outcome").collect(outcome.code());
    Statistics.label("prepared").coverage(c -> {
      c.check("skipped").count(n -> n > 0);
      c.check("kept").count(n -> n > 0);
    });
    Statistics.label("outcome").coverage(c -> {
      c.check(Code.SUCCESS).count(n -> n > 0);
      c.check(Code.UNSCHEDULABLE_AND_UNRESOLVABLE).count(n -> n > 0);
    });
  }

  @Property
  @Label("searching only the nodes the terms name decides as filtering every node would, with kube's messages")
  void namedNodesDecideAsEveryNodeWould(
      @ForAll("clusters") List<NodeInfo> nodes, @ForAll("namingAffinities") NodeAffinity affinity) {
    var pod = pod().affinity(affinity).build();
    var policy = Policy.builder().filter(filter).build();

    var decision = policy.find(pod, nodes);

    var fitting = nodes.stream().filter(node -> filter.filter(pod, node).fits()).map(NodeInfo::name).toList();
    var named = NodeAffinityFilter.namedNodes(affinity.required());
    String outcome;
    if (decision instanceof Decision.Bind bind) {
      assertTrue(fitting.contains(bind.nodeName()), bind + " fits " + fitting);
      outcome = named == null ? "bound" : "bound, nodes named";
    } else {
      var unschedulable = (Decision.Unschedulable) decision;
      assertEquals(List.of(), fitting);
      assertEquals(nodes.stream().map(NodeInfo::name).collect(Collectors.toSet()), unschedulable.unresolvableNodes());
      assertEquals(unschedulable.reasonsByNode().keySet(), unschedulable.unresolvableNodes());
      for (var node : nodes) {
        var reasons = unschedulable.reasonsByNode().get(node.name());
        if (named == null || named.contains(node.name())) {
          assertEquals(List.of(ERR_REASON_POD), reasons);
        } else if (named.isEmpty()) {
          assertEquals(List.of(NodeAffinityFilter.TERMS_CONFLICT), reasons);
        } else {
          assertEquals(List.of("node(s) didn't satisfy plugin(s) [NodeAffinity]"), reasons);
        }
      }
      outcome = named == null ? "unschedulable" : named.isEmpty() ? "conflict" : "unschedulable, nodes named";
    }
    Statistics.label("outcome").collect(outcome);
    Statistics.label("outcome").coverage(c -> {
      for (var expected : List.of("bound", "bound, nodes named", "unschedulable", "conflict", "unschedulable, nodes named")) {
        c.check(expected).count(n -> n > 0);
      }
    });
  }

  /** One to four of the nodes n1..n4, with labels. */
  @Provide
  Arbitrary<List<NodeInfo>> clusters() {
    return Arbitraries.of("n1", "n2", "n3", "n4").set().ofMinSize(1).ofMaxSize(4)
        .flatMap(names -> FilterFixtures.labelMaps().list().ofSize(names.size()).map(labels -> {
          var sorted = names.stream().sorted().toList();
          var built = new java.util.ArrayList<NodeInfo>();
          for (int i = 0; i < sorted.size(); i++) {
            built.add(node(sorted.get(i), labels.get(i)));
          }
          return List.copyOf(built);
        }));
  }

  /** One or two required terms, each with zero to two {@code metadata.name In} requirements (n5 is no node). */
  @Provide
  Arbitrary<NodeAffinity> namingAffinities() {
    var fields = Arbitraries.of("n1", "n2", "n3", "n5").map(FilterFixtures::nodeNameIn).list().ofMaxSize(2);
    var terms = Combinators.combine(FilterFixtures.requirements().list().ofMaxSize(1), fields).as(NodeSelectorTerm::new);
    return terms.list().ofMinSize(1).ofMaxSize(2).map(required -> new NodeAffinity(required, List.of()));
  }

  private static NodeInfo node(String name, Map<String, String> labels) {
    return FilterFixtures.node(name).labels(labels).build();
  }

  @Provide
  Arbitrary<Map<String, String>> labelMaps() {
    return FilterFixtures.labelMaps();
  }

  @Provide
  Arbitrary<PodInfo> pods() {
    return Arbitraries.oneOf(
            FilterFixtures.affinities().map(affinity -> pod().affinity(affinity)),
            FilterFixtures.labelMaps().map(selector -> pod().nodeSelector(selector)))
        .map(PodInfo.Builder::build);
  }

  /** Pods with a node selector, required node affinity, both or neither. */
  @Provide
  Arbitrary<PodInfo> selectorsAndAffinities() {
    return Combinators.combine(
            FilterFixtures.affinities().injectNull(0.3), FilterFixtures.labelMaps().injectNull(0.3))
        .as((affinity, selector) -> {
          var pod = pod();
          if (affinity != null) {
            pod.affinity(affinity);
          }
          if (selector != null) {
            pod.nodeSelector(selector);
          }
          return pod.build();
        });
  }

  @Provide
  Arbitrary<NodeInfo> nodes() {
    return Combinators.combine(Arbitraries.of("n1", "n2"), FilterFixtures.labelMaps())
        .as(NodeAffinityFilterProperties::node);
  }

  @Provide
  Arbitrary<NodeInfo> fullNodes() {
    return FilterFixtures.nodes();
  }

  @Provide
  Arbitrary<NodeSelectorTerm> terms() {
    return FilterFixtures.terms();
  }

  @Provide
  Arbitrary<List<NodeSelectorTerm>> termLists() {
    return FilterFixtures.terms().list().ofMaxSize(2);
  }
}
