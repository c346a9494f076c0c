package io.kubesched.policy.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.HostPort;
import io.kubesched.api.NodeAffinity;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import io.kubesched.api.Toleration;
import io.kubesched.api.Volume;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.plugins.helper.NodeSelectors;
import io.kubesched.policy.plugins.nodeunschedulable.NodeUnschedulableFilter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.jspecify.annotations.Nullable;

/**
 * Fixtures shared by the tests of the built-in filters: short builders in the spirit of kube-scheduler's
 * {@code st.MakePod()}, an {@link Outcome} to compare results with kube-scheduler's expected statuses, and
 * generators over small alphabets, so that equal and different values (hence fits and rejections) are both
 * frequent.
 */
public final class FilterFixtures {

  private FilterFixtures() {}

  // ---------------------------------------------------------------- outcomes

  /**
   * A filter result as kube-scheduler's tests state it: a code and the reasons' messages (none for success).
   */
  public record Outcome(Code code, List<String> messages) {
    public static final Outcome FIT = new Outcome(Code.SUCCESS, List.of());

    public Outcome {
      messages = List.copyOf(messages);
    }

    public static Outcome unschedulable(String... messages) {
      return new Outcome(Code.UNSCHEDULABLE, List.of(messages));
    }

    public static Outcome unresolvable(String... messages) {
      return new Outcome(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(messages));
    }

    public static Outcome of(FilterResult result) {
      if (result instanceof FilterResult.Rejected rejected) {
        return new Outcome(rejected.code(), rejected.reasons().stream().map(Reason::message).toList());
      }
      if (result instanceof FilterResult.Failed failed) {
        return new Outcome(Code.ERROR, List.of(failed.message()));
      }
      return FIT;
    }
  }

  public static void assertOutcome(Outcome expected, FilterResult actual) {
    assertEquals(expected, Outcome.of(actual));
  }

  /** @return the reasons of a rejection; empty for a fit */
  public static List<Reason> reasons(FilterResult result) {
    return result instanceof FilterResult.Rejected rejected ? rejected.reasons() : List.of();
  }

  // ---------------------------------------------------------------- pods and nodes

  /** @return a builder of a pod "default/p" that requests nothing but its own pod slot */
  public static PodInfo.Builder pod() {
    return PodInfo.builder("default", "p");
  }

  /** @return a pod named {@code name} */
  public static PodInfo.Builder pod(String name) {
    return PodInfo.builder("default", name);
  }

  /** @return a builder of a schedulable node named {@code name} with nothing allocatable */
  public static NodeInfo.Builder node(String name) {
    return NodeInfo.builder(name);
  }

  /** @return a node "n" with the given pods */
  public static NodeInfo nodeWith(PodInfo... pods) {
    return node("n").pods(List.of(pods)).build();
  }

  /** @return a node "n" with the given labels */
  public static NodeInfo nodeLabelled(Map<String, String> labels) {
    return node("n").labels(labels).build();
  }

  // ---------------------------------------------------------------- resources

  /** The hugepages resource kube-scheduler's fit tests use. */
  public static final String HUGEPAGES = "hugepages-2Mi";

  /** The extended resource kube-scheduler's fit tests call {@code extendedResourceA}. */
  public static final String EXTENDED_A = "example.com/aaa";

  /** The extended resource kube-scheduler's fit tests call {@code extendedResourceB}. */
  public static final String EXTENDED_B = "example.com/bbb";

  /** @return requests of one pod: CPU in millicores, memory, ephemeral storage, extended resources */
  public static Resources requests(long milliCpu, long memory, long ephemeralStorage, Map<String, Long> extended) {
    return new Resources(milliCpu, memory, ephemeralStorage, 1, extended);
  }

  /** @return requests of one pod: CPU in millicores and memory */
  public static Resources requests(long milliCpu, long memory) {
    return requests(milliCpu, memory, 0, Map.of());
  }

  /** @return a pod requesting exactly {@code requests} */
  public static PodInfo requesting(Resources requests) {
    return pod().requests(requests).build();
  }

  // ---------------------------------------------------------------- taints and tolerations

  public static Taint taint(String key, String value, TaintEffect effect) {
    return new Taint(key, value, effect);
  }

  public static Toleration equal(String key, String value, @Nullable TaintEffect effect) {
    return new Toleration(key, Toleration.Operator.EQUAL, value, effect);
  }

  public static Toleration exists(String key, @Nullable TaintEffect effect) {
    return new Toleration(key, Toleration.Operator.EXISTS, "", effect);
  }

  /** @return a pod with the given tolerations */
  public static PodInfo tolerating(Toleration... tolerations) {
    return pod().tolerations(List.of(tolerations)).build();
  }

  /** @return a node "nodeA" with the given taints */
  public static NodeInfo tainted(Taint... taints) {
    return node("nodeA").taints(List.of(taints)).build();
  }

  // ---------------------------------------------------------------- host ports

  /** @return host ports written as kube-scheduler's node ports test writes them: "UDP/127.0.0.1/8080" */
  public static List<HostPort> ports(String... specs) {
    return Arrays.stream(specs)
        .map(
            spec -> {
              var parts = spec.split("/");
              return new HostPort(parts[0], parts[1], Integer.parseInt(parts[2]));
            })
        .toList();
  }

  /** @return a pod binding the given host ports */
  public static PodInfo podWithPorts(String... specs) {
    return pod().hostPorts(ports(specs)).build();
  }

  // ---------------------------------------------------------------- affinity

  public static NodeSelectorRequirement requirement(
      String key, NodeSelectorRequirement.Operator operator, String... values) {
    return NodeSelectorRequirement.of(key, operator, values);
  }

  /** @return the field requirement {@code metadata.name In (name)} */
  public static NodeSelectorRequirement nodeNameIn(String name) {
    return requirement(NodeSelectors.NODE_NAME_FIELD, NodeSelectorRequirement.Operator.IN, name);
  }

  public static NodeSelectorTerm term(
      List<NodeSelectorRequirement> expressions, List<NodeSelectorRequirement> fields) {
    return new NodeSelectorTerm(expressions, fields);
  }

  /** @return a pod whose required node affinity has the given terms */
  public static PodInfo.Builder withRequiredTerms(NodeSelectorTerm... terms) {
    return pod().affinity(new NodeAffinity(List.of(terms), List.of()));
  }

  // ---------------------------------------------------------------- volumes

  /** @return a pod with the given volumes */
  public static PodInfo podWithVolumes(Volume... volumes) {
    return pod().volumes(List.of(volumes)).build();
  }

  // ---------------------------------------------------------------- generators

  /** @return label maps over the keys a, b, c and the values x, y */
  public static Arbitrary<Map<String, String>> labelMaps() {
    return Arbitraries.maps(Arbitraries.of("a", "b", "c"), Arbitraries.of("x", "y")).ofMaxSize(3);
  }

  /** @return taints over a few keys (among them the unschedulable taint's), values and every effect */
  public static Arbitrary<Taint> taints() {
    return Combinators.combine(
            Arbitraries.of("a", "b", NodeUnschedulableFilter.UNSCHEDULABLE_TAINT_KEY),
            Arbitraries.of("", "x"),
            Arbitraries.of(TaintEffect.class))
        .as(Taint::new);
  }

  /** @return tolerations, with wildcard keys and effects, over the keys and values of {@link #taints()} */
  public static Arbitrary<Toleration> tolerations() {
    return Combinators.combine(
            Arbitraries.of("", "a", "b", NodeUnschedulableFilter.UNSCHEDULABLE_TAINT_KEY),
            Arbitraries.of(Toleration.Operator.class),
            Arbitraries.of("", "x"),
            Arbitraries.of(TaintEffect.class).injectNull(0.3))
        .as(Toleration::new);
  }

  /** @return host ports over two protocols, the wildcard and two addresses, and two port numbers */
  public static Arbitrary<HostPort> hostPorts() {
    return Combinators.combine(
            Arbitraries.of("TCP", "UDP"),
            Arbitraries.of(HostPort.ALL_ADDRESSES, "127.0.0.1", "10.0.0.1"),
            Arbitraries.of(80, 8080))
        .as(HostPort::new);
  }

  /** @return volumes of every kind, over two names each, read-only or not */
  public static Arbitrary<Volume> volumes() {
    var names = Arbitraries.of("a", "b");
    var readOnly = Arbitraries.of(true, false);
    Arbitrary<Volume> gce = Combinators.combine(names, readOnly).as(Volume.GcePersistentDisk::new);
    Arbitrary<Volume> ebs = Combinators.combine(names, readOnly).as(Volume.AwsElasticBlockStore::new);
    Arbitrary<Volume> rbd =
        Combinators.combine(
                Arbitraries.of("m1", "m2", "m3").set().ofMinSize(1).ofMaxSize(2).map(List::copyOf),
                names,
                names,
                readOnly)
            .as(Volume.Rbd::new);
    Arbitrary<Volume> iscsi =
        Combinators.combine(Arbitraries.of("p1", "p2"), names, Arbitraries.of(0, 1), readOnly)
            .as(Volume.Iscsi::new);
    return Arbitraries.oneOf(gce, ebs, rbd, iscsi);
  }

  /** The resource names the generators use: two extended resources and a hugepages size. */
  public static final List<String> EXTENDED_NAMES = List.of(EXTENDED_A, EXTENDED_B, HUGEPAGES);

  /** @return small amounts of every resource, often zero, with {@code pods} as given */
  public static Arbitrary<Resources> resources(Arbitrary<Long> pods) {
    var amount = Arbitraries.longs().between(0, 6);
    var extended = Arbitraries.maps(Arbitraries.of(EXTENDED_NAMES), amount).ofMaxSize(2);
    return Combinators.combine(amount, amount, amount, pods, extended).as(Resources::new);
  }

  /** @return node selector requirements over the label keys of {@link #labelMaps()}, some invalid */
  public static Arbitrary<NodeSelectorRequirement> requirements() {
    var values = Arbitraries.of("x", "y", "1").list().ofMaxSize(2);
    return Combinators.combine(
            Arbitraries.of("a", "b"), Arbitraries.of(NodeSelectorRequirement.Operator.class), values)
        .as(NodeSelectorRequirement::new);
  }

  /** @return node selector terms of zero to two label requirements, and sometimes a node name requirement */
  public static Arbitrary<NodeSelectorTerm> terms() {
    var fields =
        Arbitraries.of("n1", "n2")
            .map(FilterFixtures::nodeNameIn)
            .list()
            .ofMaxSize(1);
    return Combinators.combine(requirements().list().ofMaxSize(2), fields).as(NodeSelectorTerm::new);
  }

  /** @return node affinities of zero to two required terms */
  public static Arbitrary<NodeAffinity> affinities() {
    return terms().list().ofMaxSize(2).map(terms -> new NodeAffinity(terms, List.of()));
  }

  /** @return pods with every property a built-in filter reads, drawn from the small alphabets above */
  public static Arbitrary<PodInfo> pods() {
    var base =
        Combinators.combine(
            Arbitraries.of("", "n1", "n2"),
            resources(Arbitraries.just(1L)),
            labelMaps(),
            affinities(),
            tolerations().list().ofMaxSize(3));
    var rest = Combinators.combine(hostPorts().list().ofMaxSize(2), volumes().list().ofMaxSize(2));
    return Combinators.combine(
            base.as(PodParts::new), rest.as((ports, volumes) -> Map.entry(ports, volumes)))
        .as(
            (parts, portsAndVolumes) ->
                pod()
                    .nodeName(parts.nodeName())
                    .requests(parts.requests())
                    .nodeSelector(parts.nodeSelector())
                    .affinity(parts.affinity())
                    .tolerations(parts.tolerations())
                    .hostPorts(portsAndVolumes.getKey())
                    .volumes(portsAndVolumes.getValue())
                    .build());
  }

  private record PodParts(
      String nodeName,
      Resources requests,
      Map<String, String> nodeSelector,
      NodeAffinity affinity,
      List<Toleration> tolerations) {}

  /** @return nodes named n1 or n2 with labels, taints, a cordon, allocatable resources and up to three pods */
  public static Arbitrary<NodeInfo> nodes() {
    return Combinators.combine(
            Arbitraries.of("n1", "n2"),
            labelMaps(),
            taints().list().ofMaxSize(2),
            Arbitraries.of(true, false),
            // A floor of room, so that pods fit now and then despite the node's own pods.
            resources(Arbitraries.longs().between(0, 4)).map(r -> r.plus(new Resources(6, 6, 6, 2, Map.of()))),
            pods().list().ofMaxSize(3))
        .as(
            (name, labels, taints, unschedulable, allocatable, pods) ->
                node(name)
                    .labels(labels)
                    .taints(taints)
                    .unschedulable(unschedulable)
                    .allocatable(allocatable)
                    .pods(pods)
                    .build());
  }

  /** @return the elements of both lists, in order */
  public static <T> List<T> concat(List<T> first, List<T> second) {
    return Stream.concat(first.stream(), second.stream()).toList();
  }
}
