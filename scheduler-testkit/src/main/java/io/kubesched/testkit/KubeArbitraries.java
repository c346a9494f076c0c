package io.kubesched.testkit;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ContainerImage;
import io.kubesched.api.HostPort;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeAffinity;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.Owner;
import io.kubesched.api.PodAffinity;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PreferredSchedulingTerm;
import io.kubesched.api.Resources;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.api.Toleration;
import io.kubesched.api.Volume;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * jqwik arbitraries of the scheduler's domain model, for property tests of placement policies.
 *
 * <p>Every value is drawn from a small alphabet, so that what a policy compares matches in some tries and
 * not in others: node labels and pod node selectors use the keys {@value #LABEL_ZONE}, {@value #LABEL_DISK}
 * and {@value #LABEL_GPU} with the values {@code a} and {@code b}; taints and tolerations use the keys
 * {@value #TAINT_DEDICATED}, {@value #TAINT_SPOT} and {@value #TAINT_GPU} with the values {@code ""},
 * {@code team-a} and {@code team-b} and every effect; extended resources are {@value #GPU}, {@value
 * #LICENCE} and {@value #HUGEPAGES}. The edge cases that break policies are drawn on purpose and often
 * (not left to jqwik's edge-case mode): requests of zero, pods that request exactly a node's free
 * capacity or one millicore more ({@link #scenarios()}), amounts at and near {@link Long#MAX_VALUE}, nodes
 * without labels, nodes with many taints, cordoned nodes, extended resources, and empty clusters.
 *
 * <p>jqwik's own edge cases are switched off for these arbitraries: those of a list of nodes alone would
 * fill half the tries with one-node clusters. The arbitraries are values: configuring one returns a new
 * one, and they may be shared between properties. Users who prefer parameters resolved by type can use
 * {@link KubeDomain} instead.
 *
 * <p><b>Constraints between pods.</b> Pod affinity and anti-affinity, topology spread constraints and
 * scheduling gates have a vocabulary of their own, small enough that selectors really select: pods are
 * labelled with {@value #LABEL_APP} and {@value #LABEL_TIER} ({@code web} or {@code db}); {@link
 * #labelSelectors()} use those keys and values (and {@code cache}, which no pod carries), and match a
 * generated pod in about a third of the draws; the topology keys are {@value #TOPOLOGY_HOSTNAME}, {@value
 * #TOPOLOGY_ZONE} (which about one node in five lacks) and {@value #TOPOLOGY_RACK} (which most nodes lack);
 * the namespaces are {@code default}, {@code team-a} and {@code team-b}. Pods carry these constraints only when
 * asked ({@link PodArbitrary#withPlacementConstraints()}), nodes carry the topology labels only when asked
 * ({@link ClusterArbitrary#withTopology()}), and {@link #snapshots()} and {@link #snapshotScenarios()} give a
 * whole {@link ClusterSnapshot} whose placed pods have constraints of their own. A property of a policy that
 * honours anti-affinity, over a whole snapshot:
 *
 * <pre>{@code
 * @Property
 * void neverBindsWhereAPlacedPodRepelsThePod(@ForAll("scenarios") SnapshotScenario scenario) {
 *   var decision = myPolicy.find(scenario.pod(), scenario.snapshot());
 *   if (decision instanceof Decision.Bind bind) {
 *     assertFalse(repelled(scenario.pod(), bind.nodeName(), scenario.snapshot()), scenario::toString);
 *   }
 * }
 *
 * @Provide
 * Arbitrary<SnapshotScenario> scenarios() {
 *   return KubeArbitraries.snapshotScenarios(); // a third of the pods are the next replica of a placed one
 * }
 * }</pre>
 *
 * <p>and {@link PolicyContract} over the same kind of input:
 *
 * <pre>{@code
 * @Override
 * public Arbitrary<Scenario> scenarios() {
 *   return KubeArbitraries.scenarios()
 *       .withPods(KubeArbitraries.pods().withPlacementConstraints())
 *       .withClusters(KubeArbitraries.clusters().withTopology());
 * }
 * }</pre>
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class KubeArbitraries {

  /** Node label key for a zone. */
  public static final String LABEL_ZONE = "zone";

  /** Node label key for a disk type. */
  public static final String LABEL_DISK = "disk";

  /** Node label key for an accelerator. */
  public static final String LABEL_GPU = "gpu";

  /** Pod label key for an application; pods carry it with the value {@code web} or {@code db}, or not at all. */
  public static final String LABEL_APP = "app";

  /** Pod label key for a tier; pods carry it with the value {@code web} or {@code db}, or not at all. */
  public static final String LABEL_TIER = "tier";

  /** Well-known node label for the node's host name: every node of a topology cluster has it. */
  public static final String TOPOLOGY_HOSTNAME = "kubernetes.io/hostname";

  /** Well-known node label for the zone: about one node of a topology cluster in five lacks it. */
  public static final String TOPOLOGY_ZONE = "topology.kubernetes.io/zone";

  /** A topology key most nodes lack: about two nodes of a topology cluster in three. */
  public static final String TOPOLOGY_RACK = "example.com/rack";

  /** The label Kubernetes gives every namespace: its name. */
  public static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

  /** Taint key for nodes dedicated to a team. */
  public static final String TAINT_DEDICATED = "dedicated";

  /** Taint key for spot nodes. */
  public static final String TAINT_SPOT = "spot";

  /** Taint key for accelerator nodes. */
  public static final String TAINT_GPU = "gpu";

  /** Extended resource: accelerators, in devices. */
  public static final String GPU = "nvidia.com/gpu";

  /** Extended resource: software licences, in seats. */
  public static final String LICENCE = "example.com/licence";

  /** Hugepages resource, in bytes. */
  public static final String HUGEPAGES = "hugepages-2Mi";

  private static final List<String> LABEL_KEYS = List.of(LABEL_ZONE, LABEL_DISK, LABEL_GPU);
  private static final List<String> LABEL_VALUES = List.of("a", "b");
  private static final List<String> TAINT_KEYS = List.of(TAINT_DEDICATED, TAINT_SPOT, TAINT_GPU);
  private static final List<String> TAINT_VALUES = List.of("", "team-a", "team-b");
  private static final List<String> EXTENDED = List.of(GPU, LICENCE, HUGEPAGES);
  private static final List<String> IMAGES = List.of("nginx:1.27", "redis:7.4", "busybox:1.37");
  private static final long MIB = 1024L * 1024;
  private static final long GIB = 1024 * MIB;

  /** Weights are out of this: a huge request in one pending pod in twenty per resource, one placed in 200. */
  private static final int HUGE_SCALE = 200;

  private static final int PENDING_HUGE_WEIGHT = 10;
  private static final int PLACED_HUGE_WEIGHT = 1;

  /** How many node names {@link #nodes()} draws from: enough for clusters of its default size. */
  static final int DEFAULT_NODE_NAMES = 12;

  private KubeArbitraries() {}

  /**
   * Pending pods: no {@code nodeName}, {@code pods = 1} in their requests, named {@code pod-N} in namespace
   * {@code default} or {@code team-a}, labelled with zero to two of {@value #LABEL_APP} and {@value
   * #LABEL_TIER} ({@code web} or {@code db}). About one in six requests nothing at all, and about one in eight
   * asks for an amount at or near {@link Long#MAX_VALUE}; a third carry a node selector, three in four carry
   * tolerations, all from the small alphabets above; some carry node affinity, host ports, volumes and
   * extended resource requests. By default none carries pod affinity, topology spread constraints or
   * scheduling gates: {@link PodArbitrary#withPlacementConstraints()} and its siblings add them.
   *
   * @return a configurable arbitrary of pending pods, never {@code null}
   */
  public static PodArbitrary pods() {
    return new PodArbitrary();
  }

  /** The pods of {@link #pods()} without placement constraints, as they were before there were options. */
  static Arbitrary<PodInfo> plainPods() {
    return Combinators.combine(podDraws(PENDING_HUGE_WEIGHT), nodeSelectors(), affinities(), tolerationLists())
        .as(
            (draw, nodeSelector, affinity, tolerations) ->
                draw.builder(draw.name())
                    .nodeSelector(nodeSelector)
                    .affinity(affinity)
                    .tolerations(tolerations)
                    .build())
        .withoutEdgeCases();
  }

  /**
   * Nodes, each with the pods already placed on it (zero to four, bound to it by {@code nodeName}, their
   * requests summed into {@code requested} by {@link NodeInfo#withPod(PodInfo)}), named {@code node-0} to
   * {@code node-11}. About one node in four has no labels, one in six is cordoned, one in five has four to
   * six taints (unique by key and effect, as the API server demands), half offer extended resources;
   * allocatable amounts are mostly ordinary, sometimes zero and sometimes at or near {@link
   * Long#MAX_VALUE}, and {@code pods} is sometimes small, so that nodes fill up.
   *
   * @return an arbitrary of nodes, never {@code null}
   */
  public static Arbitrary<NodeInfo> nodes() {
    return Combinators.combine(Arbitraries.of(nodeNames(DEFAULT_NODE_NAMES)), unnamedNodes())
        .as((name, node) -> node.apply(name))
        .withoutEdgeCases();
  }

  /**
   * Clusters of zero to eight nodes with unique names; about one in ten is empty. {@link
   * ClusterArbitrary#ofSize(int, int)} changes the size.
   *
   * @return a configurable arbitrary of clusters, never {@code null}
   */
  public static ClusterArbitrary clusters() {
    return new ClusterArbitrary();
  }

  /**
   * A pending pod from {@link #pods()} and a cluster from {@link #clusters()}. In about one scenario in
   * five the pod requests exactly the free CPU, memory, ephemeral storage and extended resources of one of
   * the cluster's nodes (allocatable less requested, zero if the node is already over-committed), and in
   * about one in ten one millicore more than that. {@link ScenarioArbitrary#ofClusterSize(int, int)},
   * {@link ScenarioArbitrary#withPods(Arbitrary)} and {@link ScenarioArbitrary#withClusters(Arbitrary)}
   * configure it.
   *
   * @return a configurable arbitrary of scenarios, never {@code null}
   */
  public static ScenarioArbitrary scenarios() {
    return new ScenarioArbitrary(pods(), clusters());
  }

  /**
   * Label selectors over the pods' labels ({@value #LABEL_APP} and {@value #LABEL_TIER}, values {@code web}
   * and {@code db}, and in expressions also {@code cache}, which no pod carries), so that a selector matches
   * some generated pods and not others: {@code matchLabels} alone, {@code matchExpressions} alone (every
   * operator), both, and in about one draw in six the empty selector {@link LabelSelector#EVERYTHING}. Never
   * {@code null}: see {@link #labelSelectorsOrNull()}.
   *
   * @return an arbitrary of label selectors, never {@code null}
   */
  public static Arbitrary<LabelSelector> labelSelectors() {
    return PlacementDraws.podSelectors().withoutEdgeCases();
  }

  /**
   * As {@link #labelSelectors()}, and {@code null} in about one draw in ten: the absent selector, which in a
   * pod affinity term or a spread constraint selects no pod at all.
   *
   * @return an arbitrary of label selectors, {@code null} among them
   */
  public static Arbitrary<@Nullable LabelSelector> labelSelectorsOrNull() {
    return labelSelectors().injectNull(0.1);
  }

  /**
   * Pod affinity terms: a selector of {@link #labelSelectorsOrNull()}; a topology key of {@value
   * #TOPOLOGY_HOSTNAME}, {@value #TOPOLOGY_ZONE} or {@value #TOPOLOGY_RACK} (which most nodes of {@link
   * ClusterArbitrary#withTopology()} lack); in about four terms of ten {@code namespaces} by name ({@code
   * default}, {@code team-a}, {@code team-b}), in three a {@code namespaceSelector} over the labels of {@link
   * #snapshots()}' namespaces (the empty one among them), and sometimes {@code matchLabelKeys} or {@code
   * mismatchLabelKeys}, only where the API server accepts them (a selector is set and does not name the key).
   * The keys are not merged into the selector: a 1.37 API server does that when it creates a pod, and
   * kube-scheduler's InterPodAffinity then reads the selector only, so to test a policy on pods as the API
   * server stores them, merge each key (as {@code key In (the pod's value)}, {@code NotIn} for mismatch) into
   * the selector yourself.
   *
   * @return an arbitrary of pod affinity terms, never {@code null}
   */
  public static Arbitrary<PodAffinityTerm> podAffinityTerms() {
    return PlacementDraws.affinityTerms(false).map(term -> term.apply(Map.of())).withoutEdgeCases();
  }

  /**
   * Pod affinity (or anti-affinity: the type is the same) with at least one term: half required terms only,
   * a quarter preferred terms only, a quarter both; one or two of each, preferred weights from 1 to 100 with
   * both bounds drawn often. Terms are those of {@link #podAffinityTerms()}.
   *
   * @return an arbitrary of non-empty pod affinities, never {@code null}
   */
  public static Arbitrary<PodAffinity> podAffinities() {
    return PlacementDraws.affinities(false).map(affinity -> affinity.apply(Map.of())).withoutEdgeCases();
  }

  /**
   * Topology spread constraints: {@code maxSkew} 1 to 3; the topology keys of {@link #podAffinityTerms()};
   * {@code DoNotSchedule} and {@code ScheduleAnyway} equally often; with {@code DoNotSchedule}, {@code
   * minDomains} 2 to 4 in two of five (1, unset, otherwise: the API server accepts it with no other action);
   * each inclusion policy {@code Honor} or {@code Ignore}; a selector of {@link #labelSelectorsOrNull()}, and
   * sometimes {@code matchLabelKeys} where the API server accepts them.
   *
   * @return an arbitrary of spread constraints, never {@code null}
   */
  public static Arbitrary<TopologySpreadConstraint> topologySpreadConstraints() {
    return PlacementDraws.spreadConstraints(false).map(c -> c.apply(Map.of())).withoutEdgeCases();
  }

  /**
   * Non-empty lists of scheduling gates: one or two distinct names of {@code example.com/quota}, {@code
   * example.com/gang} and {@code kubesched.io/wait}. A pod with any gate must not be scheduled.
   *
   * @return an arbitrary of gate lists, never {@code null} nor empty
   */
  public static Arbitrary<List<String>> schedulingGates() {
    return PlacementDraws.gates().withoutEdgeCases();
  }

  /**
   * Snapshots of clusters for policies that honour inter-pod constraints: the nodes of {@link
   * ClusterArbitrary#withTopology()} (hostname on every node, zone on most, rack on some; placed pods with
   * pod affinity, anti-affinity, often against their own labels, and spread constraints), the namespaces
   * {@code default}, {@code team-a} and {@code team-b} with their labels, and zero to four Services,
   * ReplicaSets, StatefulSets and ReplicationControllers whose selectors match some of the pods. {@link
   * SnapshotArbitrary#ofSize(int, int)} changes the number of nodes (zero to eight by default).
   *
   * @return a configurable arbitrary of snapshots, never {@code null}
   */
  public static SnapshotArbitrary snapshots() {
    return new SnapshotArbitrary();
  }

  /**
   * A pending pod from {@code pods().withPlacementConstraints()} and a snapshot from {@link #snapshots()}. In
   * about one scenario in three where the snapshot has placed pods, the pending pod is a sibling of one of
   * them (its namespace, labels, owner, pod affinity, anti-affinity and spread constraints), as the next
   * replica of a workload is: that is where the placed pods' anti-affinity and spreading bite.
   *
   * @return an arbitrary of snapshot scenarios, never {@code null}
   */
  public static Arbitrary<SnapshotScenario> snapshotScenarios() {
    return snapshotScenarios(pods().withPlacementConstraints(), snapshots());
  }

  /**
   * As {@link #snapshotScenarios()}, with pods and snapshots of one's own; siblings of placed pods are still
   * made from them.
   *
   * @param pods the pending pods
   * @param snapshots the snapshots
   * @return an arbitrary of snapshot scenarios, never {@code null}
   */
  public static Arbitrary<SnapshotScenario> snapshotScenarios(
      Arbitrary<PodInfo> pods, Arbitrary<ClusterSnapshot> snapshots) {
    return SnapshotScenario.arbitrary(pods, snapshots);
  }

  /** Nodes without a name yet: a cluster names them, so that names are unique without redrawing nodes. */
  static Arbitrary<Function<String, NodeInfo>> unnamedNodes() {
    return unnamedNodes(false);
  }

  /**
   * @param topology whether nodes carry the well-known topology labels (hostname, most a zone, some a rack)
   *     and their placed pods carry pod affinity, anti-affinity and spread constraints
   */
  static Arbitrary<Function<String, NodeInfo>> unnamedNodes(boolean topology) {
    Arbitrary<Function<String, PodInfo.Builder>> placedPod =
        topology ? constrainedPlacedPods() : podDraws(PLACED_HUGE_WEIGHT).map(draw -> draw::builder);
    var placedPods =
        Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.just(List.<Function<String, PodInfo.Builder>>of())),
            Tuple.of(3, placedPod.list().ofMinSize(1).ofMaxSize(4)));
    var labels = topology ? topologyLabels() : nodeLabels().map(l -> (Function<String, Map<String, String>>) name -> l);
    return Combinators.combine(
            labels,
            taintLists(),
            Arbitraries.frequency(Tuple.of(1, true), Tuple.of(5, false)),
            allocatables(),
            imageLists(),
            placedPods)
        .as(
            (nodeLabels, taints, cordoned, allocatable, images, pods) ->
                name -> {
                  var node =
                      NodeInfo.builder(name)
                          .labels(nodeLabels.apply(name))
                          .taints(taints)
                          .unschedulable(cordoned)
                          .allocatable(allocatable)
                          .images(images)
                          .build();
                  // Placed pods are named after their node, so that pod keys are unique across a cluster.
                  for (int i = 0; i < pods.size(); i++) {
                    node = node.withPod(pods.get(i).apply(name + "-pod-" + i).nodeName(name).build());
                  }
                  return node;
                });
  }

  /**
   * The labels of {@link #nodeLabels()} plus {@value #TOPOLOGY_HOSTNAME} (the node's name), in four nodes of
   * five {@value #TOPOLOGY_ZONE} ({@code zone-a} to {@code zone-c}) and in one of three {@value
   * #TOPOLOGY_RACK} ({@code rack-1} or {@code rack-2}).
   */
  private static Arbitrary<Function<String, Map<String, String>>> topologyLabels() {
    var zone =
        Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.just("")), Tuple.of(4, Arbitraries.of("zone-a", "zone-b", "zone-c")));
    var rack =
        Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just("")), Tuple.of(1, Arbitraries.of("rack-1", "rack-2")));
    return Combinators.combine(nodeLabels(), zone, rack)
        .as(
            (labels, z, r) ->
                name -> {
                  var all = new TreeMap<>(labels);
                  all.put(TOPOLOGY_HOSTNAME, name);
                  if (!z.isEmpty()) {
                    all.put(TOPOLOGY_ZONE, z);
                  }
                  if (!r.isEmpty()) {
                    all.put(TOPOLOGY_RACK, r);
                  }
                  return all;
                });
  }

  /**
   * Placed pods as a workload's replicas are: one in three with pod anti-affinity (often against their own
   * labels, so that a sibling cannot join them), one in six with pod affinity, one in six with spread
   * constraints; never gated, since a bound pod has no gates.
   */
  private static Arbitrary<Function<String, PodInfo.Builder>> constrainedPlacedPods() {
    return Combinators.combine(
            podDraws(PLACED_HUGE_WEIGHT),
            PlacementDraws.affinitiesOrNone(true, 5, 1),
            PlacementDraws.affinitiesOrNone(true, 2, 1),
            PlacementDraws.spreadConstraintListsOrNone(true, 5, 1))
        .as(
            (draw, affinity, antiAffinity, spread) ->
                podName ->
                    draw.builder(podName)
                        .podAffinity(affinity.apply(draw.labels()))
                        .podAntiAffinity(antiAffinity.apply(draw.labels()))
                        .topologySpreadConstraints(spread.apply(draw.labels())));
  }

  /** @return {@code node-0} to {@code node-(count - 1)} */
  static List<String> nodeNames(int count) {
    return IntStream.range(0, count).mapToObj(i -> "node-" + i).toList();
  }

  /**
   * @return what {@code node} has left: allocatable less requested, per resource, never below zero
   */
  static Resources free(NodeInfo node) {
    var allocatable = node.allocatable();
    var requested = node.requested();
    var extended = new TreeMap<String, Long>();
    allocatable.extended().forEach((name, amount) -> extended.put(name, left(amount, requested.extended(name))));
    return new Resources(
        left(allocatable.milliCpu(), requested.milliCpu()),
        left(allocatable.memory(), requested.memory()),
        left(allocatable.ephemeralStorage(), requested.ephemeralStorage()),
        left(allocatable.pods(), requested.pods()),
        extended);
  }

  private static long left(long offered, long taken) {
    return Math.max(0, offered - taken);
  }

  // ---- pods ----

  /** What pending and placed pods share; placement constraints are added to pending pods only. */
  private record PodDraw(
      String namespace,
      String name,
      int priority,
      Map<String, String> labels,
      @Nullable Owner owner,
      Resources requests,
      List<HostPort> hostPorts,
      List<Volume> volumes,
      List<String> images) {

    PodInfo.Builder builder(String podName) {
      return PodInfo.builder(namespace, podName)
          .priority(priority)
          .labels(labels)
          .owner(owner)
          .requests(requests)
          .hostPorts(hostPorts)
          .volumes(volumes)
          .images(images);
    }
  }

  private static Arbitrary<PodDraw> podDraws(int hugeWeight) {
    var identity =
        Combinators.combine(Arbitraries.of("default", "team-a"), uniform(0, 99))
            .as((namespace, i) -> Tuple.of(namespace, "pod-" + i));
    return Combinators.combine(
            identity,
            Arbitraries.frequency(Tuple.of(6, 0), Tuple.of(2, 1000), Tuple.of(1, -10), Tuple.of(1, 2_000_000_000)),
            Arbitraries.of(labelMaps(PlacementDraws.POD_LABEL_KEYS, PlacementDraws.POD_LABEL_VALUES, 0, 2)),
            owners(),
            podRequests(hugeWeight),
            hostPortLists(),
            volumeLists(),
            Arbitraries.of(IMAGES).list().ofMinSize(1).ofMaxSize(2))
        .as(
            (id, priority, labels, owner, requests, hostPorts, volumes, images) ->
                new PodDraw(id.get1(), id.get2(), priority, labels, owner, requests, hostPorts, volumes, images));
  }

  private static Arbitrary<Owner> owners() {
    return Arbitraries.of(
            new Owner("ReplicaSet", "web-5d4f", "rs-uid-1"),
            new Owner("StatefulSet", "db", "sts-uid-1"),
            new Owner("Job", "batch", "job-uid-1"))
        .injectNull(0.5);
  }

  private static Arbitrary<Resources> podRequests(int hugeWeight) {
    var some =
        Combinators.combine(
                requested(uniform(1, 4_000), hugeWeight),
                requested(uniform(1, 8 * 1024).map(mib -> mib * MIB), hugeWeight),
                requestedEphemeralStorage(hugeWeight),
                extendedRequests(hugeWeight))
            .as((cpu, memory, storage, extended) -> new Resources(cpu, memory, storage, 1, extended));
    var nothing = Arbitraries.just(new Resources(0, 0, 0, 1, Map.of()));
    return Arbitraries.frequencyOf(Tuple.of(1, nothing), Tuple.of(5, some));
  }

  private static Arbitrary<Map<String, Long>> extendedRequests(int hugeWeight) {
    var amounts =
        Arbitraries.frequencyOf(
            Tuple.of(HUGE_SCALE - hugeWeight, Arbitraries.longs().between(1, 4)), Tuple.of(hugeWeight, huge()));
    var some = Arbitraries.maps(Arbitraries.of(EXTENDED), amounts).ofMinSize(1).ofMaxSize(2);
    return Arbitraries.frequencyOf(Tuple.of(5, Arbitraries.just(Map.<String, Long>of())), Tuple.of(1, some));
  }

  private static Arbitrary<Map<String, String>> nodeSelectors() {
    var some = Arbitraries.of(labelMaps(LABEL_KEYS, LABEL_VALUES, 1, 2));
    return Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just(Map.<String, String>of())), Tuple.of(1, some));
  }

  private static Arbitrary<NodeAffinity> affinities() {
    var requirement =
        Combinators.combine(
                Arbitraries.of(LABEL_KEYS),
                Arbitraries.of(
                    NodeSelectorRequirement.Operator.IN,
                    NodeSelectorRequirement.Operator.NOT_IN,
                    NodeSelectorRequirement.Operator.EXISTS,
                    NodeSelectorRequirement.Operator.DOES_NOT_EXIST),
                Arbitraries.of(LABEL_VALUES).list().ofMinSize(1).ofMaxSize(2).uniqueElements())
            .as(
                (key, op, values) ->
                    new NodeSelectorRequirement(
                        key,
                        op,
                        op == NodeSelectorRequirement.Operator.IN || op == NodeSelectorRequirement.Operator.NOT_IN
                            ? values
                            : List.of()));
    var term = requirement.list().ofMinSize(1).ofMaxSize(2).map(r -> new NodeSelectorTerm(r, List.of()));
    var required = term.list().ofMinSize(1).ofMaxSize(2).map(t -> new NodeAffinity(t, List.of()));
    var preferred =
        Combinators.combine(Arbitraries.integers().between(1, 100), term)
            .as(PreferredSchedulingTerm::new)
            .list()
            .ofMinSize(1)
            .ofMaxSize(2)
            .map(p -> new NodeAffinity(List.of(), p));
    return Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.just(NodeAffinity.NONE)), Tuple.of(2, required), Tuple.of(1, preferred));
  }

  private static Arbitrary<List<Toleration>> tolerationLists() {
    var keyed =
        Combinators.combine(
                Arbitraries.of(TAINT_KEYS),
                Arbitraries.of(Toleration.Operator.class),
                Arbitraries.of(TAINT_VALUES),
                Arbitraries.of(TaintEffect.class).injectNull(0.3))
            .as(
                (key, op, value, effect) ->
                    new Toleration(key, op, op == Toleration.Operator.EXISTS ? "" : value, effect));
    // An empty key with Exists tolerates every taint (of the effect, if one is given).
    var everything =
        Arbitraries.of(TaintEffect.class)
            .injectNull(0.5)
            .map(effect -> new Toleration("", Toleration.Operator.EXISTS, "", effect));
    var toleration = Arbitraries.frequencyOf(Tuple.of(9, keyed), Tuple.of(1, everything));
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(List.<Toleration>of())), Tuple.of(3, toleration.list().ofMinSize(1).ofMaxSize(3)));
  }

  private static Arbitrary<List<HostPort>> hostPortLists() {
    var port =
        Combinators.combine(
                Arbitraries.of("TCP", "UDP"),
                Arbitraries.of(HostPort.ALL_ADDRESSES, "10.0.0.1"),
                Arbitraries.of(80, 443, 8080))
            .as(HostPort::new);
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.just(List.<HostPort>of())),
        Tuple.of(1, port.list().ofMinSize(1).ofMaxSize(2).uniqueElements()));
  }

  private static Arbitrary<List<Volume>> volumeLists() {
    Arbitrary<Volume> volume =
        Arbitraries.oneOf(
            Combinators.combine(Arbitraries.of("pd-a", "pd-b"), Arbitraries.of(true, false))
                .as(Volume.GcePersistentDisk::new),
            Combinators.combine(Arbitraries.of("vol-1", "vol-2"), Arbitraries.of(true, false))
                .as(Volume.AwsElasticBlockStore::new));
    return Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.just(List.<Volume>of())), Tuple.of(1, volume.list().ofMinSize(1).ofMaxSize(2)));
  }

  // ---- nodes ----

  private static Arbitrary<Map<String, String>> nodeLabels() {
    var some = Arbitraries.of(labelMaps(LABEL_KEYS, LABEL_VALUES, 1, 3));
    return Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just(Map.<String, String>of())), Tuple.of(3, some));
  }

  private static Arbitrary<List<Taint>> taintLists() {
    var taint =
        Combinators.combine(Arbitraries.of(TAINT_KEYS), Arbitraries.of(TAINT_VALUES), Arbitraries.of(TaintEffect.class))
            .as(Taint::new);
    // The API server rejects two taints with the same key and effect.
    var taints = taint.list().uniqueElements(t -> t.key() + ":" + t.effect());
    return Arbitraries.frequencyOf(
        Tuple.of(5, Arbitraries.just(List.<Taint>of())),
        Tuple.of(3, taints.ofMinSize(1).ofMaxSize(2)),
        Tuple.of(2, taints.ofMinSize(4).ofMaxSize(6)));
  }

  private static Arbitrary<Resources> allocatables() {
    var pods =
        Arbitraries.frequencyOf(
            Tuple.of(2, Arbitraries.longs().between(0, 6)),
            Tuple.of(7, Arbitraries.just(110L)),
            Tuple.of(1, huge()));
    var extended =
        Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.just(Map.<String, Long>of())),
            Tuple.of(1, Arbitraries.maps(Arbitraries.of(EXTENDED), small(8)).ofMinSize(1).ofMaxSize(3)));
    return Combinators.combine(offeredMilliCpu(), offeredMemory(), offeredEphemeralStorage(), pods, extended)
        .as(Resources::new);
  }

  private static Arbitrary<List<ContainerImage>> imageLists() {
    var image =
        Combinators.combine(Arbitraries.of(IMAGES), Arbitraries.longs().between(1, 500).map(mib -> mib * MIB))
            .as((name, size) -> new ContainerImage(List.of(name), size));
    return image.list().ofMaxSize(2).uniqueElements(ContainerImage::names);
  }

  /**
   * Every map from some of {@code keys} to one of {@code values} each, with {@code min} to {@code max}
   * entries, smallest first. Drawing one of them is much cheaper than drawing a map, and just as varied
   * over alphabets this small.
   */
  static List<Map<String, String>> labelMaps(List<String> keys, List<String> values, int min, int max) {
    var maps = new ArrayList<Map<String, String>>();
    maps.add(Map.of());
    for (var key : keys) {
      var grown = new ArrayList<Map<String, String>>(maps);
      for (var map : maps) {
        for (var value : values) {
          var bigger = new TreeMap<>(map);
          bigger.put(key, value);
          grown.add(bigger);
        }
      }
      maps = grown;
    }
    return maps.stream()
        .filter(map -> map.size() >= min && map.size() <= max)
        .sorted(Comparator.comparingInt(Map::size))
        .map(Map::copyOf)
        .toList();
  }

  // ---- amounts ----
  // Pods ask for modest amounts and nodes offer generous ones, so that a realistic filter finds a feasible
  // node in about two scenarios in five; zero and huge amounts are mixed in on both sides at rates of their
  // own.

  private static Arbitrary<Long> requestedEphemeralStorage(int hugeWeight) {
    return Arbitraries.frequencyOf(
        Tuple.of(HUGE_SCALE * 7 / 10, Arbitraries.just(0L)),
        Tuple.of(HUGE_SCALE * 3 / 10 - hugeWeight, uniform(1, 20).map(gib -> gib * GIB)),
        Tuple.of(hugeWeight, huge()));
  }

  private static Arbitrary<Long> offeredMilliCpu() {
    return offered(uniform(1, 64_000));
  }

  private static Arbitrary<Long> offeredMemory() {
    return offered(uniform(1, 256 * 1024).map(mib -> mib * MIB));
  }

  private static Arbitrary<Long> offeredEphemeralStorage() {
    return offered(uniform(1, 500).map(gib -> gib * GIB));
  }

  /** Mostly small counts, sometimes huge: devices, seats, pages. */
  private static Arbitrary<Long> small(int max) {
    return Arbitraries.frequencyOf(Tuple.of(19, Arbitraries.longs().between(1, max)), Tuple.of(1, huge()));
  }

  /**
   * A request: zero, ordinary or huge. The boundaries are drawn on purpose rather than left to jqwik's edge
   * cases, which are mixed in only in some tries and not at all when a user turns them off.
   */
  private static Arbitrary<Long> requested(Arbitrary<Long> ordinary, int hugeWeight) {
    return Arbitraries.frequencyOf(
        Tuple.of(HUGE_SCALE / 10, Arbitraries.just(0L)),
        Tuple.of(HUGE_SCALE * 9 / 10 - hugeWeight, ordinary),
        Tuple.of(hugeWeight, huge()));
  }

  /** An allocatable amount: mostly ordinary, sometimes nothing, sometimes huge. */
  private static Arbitrary<Long> offered(Arbitrary<Long> ordinary) {
    return Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just(0L)), Tuple.of(18, ordinary), Tuple.of(1, huge()));
  }

  /** Uniform, unlike jqwik's default for numbers, which favours small ones and would starve nodes. */
  private static Arbitrary<Long> uniform(long min, long max) {
    return Arbitraries.longs().between(min, max).withDistribution(RandomDistribution.uniform());
  }

  /** {@link Long#MAX_VALUE}, just below it, or about half of it (two of which overflow a {@code long}). */
  private static Arbitrary<Long> huge() {
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(Long.MAX_VALUE)),
        Tuple.of(1, Arbitraries.longs().between(Long.MAX_VALUE - 1_000_000, Long.MAX_VALUE - 1)),
        Tuple.of(1, Arbitraries.longs().between(Long.MAX_VALUE / 2, Long.MAX_VALUE / 2 + 1_000_000)));
  }
}
