package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.STABLE;

import io.kubesched.api.internal.DerivedList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What one scheduling decision sees of the cluster: the nodes with the pods placed on them (bound, or chosen
 * by this scheduler and being bound), and, where the policy {@link FinderFunc#reads() reads} them, the
 * namespaces' labels and the selectors of Services and workload controllers. Every decision in a
 * scheduling cycle reads one snapshot, in which every earlier decision is already counted.
 *
 * <p>Immutable. The indexes it offers ({@link #nodesWithPodAffinity()}, {@link
 * #nodesWithRequiredPodAntiAffinity()}, {@link #nodesHoldingImage}, {@link #workloadsIn}) are computed on first
 * use and kept; a snapshot made with {@link #withNodes} from the previous one reuses what that one found for
 * unchanged nodes. A
 * snapshot is meant for one thread (the scheduling thread); its indexes are computed from immutable data and
 * published through volatile fields.
 */
@API(status = STABLE, since = "0.1.0")
public final class ClusterSnapshot {

  private static final ClusterSnapshot EMPTY =
      new ClusterSnapshot(List.of(), Map.of(), List.of(), Storage.empty(), DynamicResources.empty(), List.of(), Nominations.NONE);

  private final List<NodeInfo> nodes;
  private final Map<String, Map<String, String>> namespaces;
  private final List<WorkloadSelector> workloads;
  private final Storage storage;
  private final DynamicResources dynamicResources;
  private final List<PodDisruptionBudget> disruptionBudgets;
  private final Nominations nominations;
  private volatile @Nullable Map<String, NodeInfo> byName;
  private volatile @Nullable List<NodeInfo> withAffinity;
  private volatile @Nullable List<NodeInfo> withRequiredAntiAffinity;
  /** What this snapshot found out about its nodes; computed on first use. */
  private volatile @Nullable NodeIndex index;
  /**
   * The nodes and index of the snapshot this one was derived from ({@link #withNodes}), to reuse what was found
   * out about nodes that are the same objects; dropped once this snapshot's index is computed, so no chain
   * builds up.
   */
  private @Nullable List<NodeInfo> previousNodes;
  private @Nullable NodeIndex previousIndex;

  private static final byte HAS_AFFINITY = 1;
  private static final byte HAS_REQUIRED_ANTI_AFFINITY = 2;
  private volatile @Nullable Map<String, List<WorkloadSelector>> workloadsByNamespace;

  private ClusterSnapshot(
      List<NodeInfo> nodes,
      Map<String, Map<String, String>> namespaces,
      List<WorkloadSelector> workloads,
      Storage storage,
      DynamicResources dynamicResources,
      List<PodDisruptionBudget> disruptionBudgets,
      Nominations nominations) {
    this.dynamicResources = dynamicResources;
    this.nodes = nodes;
    this.namespaces = namespaces;
    this.workloads = workloads;
    this.storage = storage;
    this.disruptionBudgets = disruptionBudgets;
    this.nominations = nominations;
  }

  /**
   * @param nodes the nodes (copied: a list built with {@code List.of} or {@code List.copyOf}, or the
   *     scheduler's own node list, is taken as it is)
   * @param namespaces each namespace's labels, by name; empty where the policy reads none (copied, unless
   *     already an unmodifiable copy of unmodifiable copies, as {@code Map.copyOf} makes them)
   * @param workloads the selectors of Services and workload controllers; empty where the policy reads none
   * @return a snapshot of these
   */
  public static ClusterSnapshot of(
      List<NodeInfo> nodes, Map<String, Map<String, String>> namespaces, List<WorkloadSelector> workloads) {
    return new ClusterSnapshot(
        immutable(nodes),
        immutableLabels(namespaces),
        List.copyOf(workloads),
        Storage.empty(),
        DynamicResources.empty(),
        List.of(),
        Nominations.NONE);
  }

  /**
   * The namespaces' labels as an immutable map of immutable maps; the controller hands the same such map to
   * every decision until a namespace changes, and then nothing is copied here.
   */
  private static Map<String, Map<String, String>> immutableLabels(Map<String, Map<String, String>> namespaces) {
    var outer = Map.copyOf(namespaces); // the same instance when it already is an unmodifiable copy
    for (var labels : outer.values()) {
      if (Map.copyOf(labels) != labels) {
        var copy = new HashMap<String, Map<String, String>>();
        outer.forEach((name, l) -> copy.put(name, Map.copyOf(l)));
        return Map.copyOf(copy);
      }
    }
    return outer;
  }

  /** @return a snapshot of just {@code nodes}: no namespaces, no workloads */
  public static ClusterSnapshot of(List<NodeInfo> nodes) {
    return nodes.isEmpty()
        ? EMPTY
        : new ClusterSnapshot(immutable(nodes), Map.of(), List.of(), Storage.empty(), DynamicResources.empty(), List.of(), Nominations.NONE);
  }

  /**
   * A snapshot of other nodes with this one's namespaces and workloads: what a scheduler hands to the next
   * decision when only nodes and pods changed. What this snapshot found out about a node (whether its pods
   * have pod affinity terms, which images it holds) is reused for the node at the same position if it is the
   * same object, so a decision costs one step per node for these indexes, not one per pod; with the
   * scheduler's own node list, which says where it differs from the list before, one step per changed node.
   *
   * @param nodes the nodes (copied as {@link #of(List)} copies them)
   * @return the new snapshot
   */
  public ClusterSnapshot withNodes(List<NodeInfo> nodes) {
    return derived(immutable(nodes), storage, dynamicResources, disruptionBudgets, nominations);
  }

  /** The scheduler's node lists are immutable and say what changed: taken as they are, not copied. */
  private static List<NodeInfo> immutable(List<NodeInfo> nodes) {
    return nodes instanceof DerivedList ? nodes : List.copyOf(nodes);
  }

  /**
   * This snapshot with other storage objects ({@link #storage()}): the same nodes, namespaces and workloads,
   * and what was found out about the nodes is kept.
   *
   * @param storage the claims, volumes, classes and CSI objects the volume rules read
   * @return the new snapshot
   */
  public ClusterSnapshot withStorage(Storage storage) {
    return derived(nodes, storage, dynamicResources, disruptionBudgets, nominations);
  }

  /**
   * This snapshot with other dynamic-resource objects ({@link #dynamicResources()}): the same nodes, namespaces and
   * workloads, and what was found out about the nodes is kept.
   *
   * @param dynamicResources the slices, classes, claims and taint rules dynamic resource allocation reads
   * @return the new snapshot
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  public ClusterSnapshot withDynamicResources(DynamicResources dynamicResources) {
    return derived(nodes, storage, dynamicResources, disruptionBudgets, nominations);
  }

  /**
   * This snapshot with other PodDisruptionBudgets ({@link #disruptionBudgets()}); what was found out about the
   * nodes is kept.
   *
   * @param disruptionBudgets every PodDisruptionBudget of the cluster (copied)
   * @return the new snapshot
   */
  public ClusterSnapshot withDisruptionBudgets(List<PodDisruptionBudget> disruptionBudgets) {
    return derived(nodes, storage, dynamicResources, List.copyOf(disruptionBudgets), nominations);
  }

  /**
   * This snapshot with other nominations ({@link #nominations()}); what was found out about the nodes is kept.
   *
   * @param nominations the pending pods nominated to nodes by preemption
   * @return the new snapshot
   */
  public ClusterSnapshot withNominations(Nominations nominations) {
    return derived(nodes, storage, dynamicResources, disruptionBudgets, nominations);
  }

  /**
   * This snapshot with {@code pod} placed on {@code nodeName} as well: what a pod group's cycle hands to the
   * next member once an earlier one fits, so that each member sees the earlier ones. Only that node is
   * replaced (by {@link NodeInfo#withPod}); what was found out about the other nodes is kept.
   *
   * @param pod a pod not yet on any node of this snapshot
   * @param nodeName one of this snapshot's nodes
   * @return the new snapshot
   * @throws IllegalArgumentException if there is no node of that name
   */
  public ClusterSnapshot withPodOn(PodInfo pod, String nodeName) {
    var replaced = new ArrayList<NodeInfo>(nodes);
    for (int i = 0; i < replaced.size(); i++) {
      if (replaced.get(i).name().equals(nodeName)) {
        replaced.set(i, replaced.get(i).withPod(pod));
        return derived(List.copyOf(replaced), storage, dynamicResources, disruptionBudgets, nominations);
      }
    }
    throw new IllegalArgumentException("no node named '" + nodeName + "' to place pod " + pod.key() + " on");
  }

  private ClusterSnapshot derived(
      List<NodeInfo> nodes,
      Storage storage,
      DynamicResources dynamicResources,
      List<PodDisruptionBudget> disruptionBudgets,
      Nominations nominations) {
    var next = new ClusterSnapshot(nodes, namespaces, workloads, storage, dynamicResources, disruptionBudgets, nominations);
    var known = index;
    if (known != null) {
      next.previousNodes = this.nodes;
      next.previousIndex = known;
    } else if (previousIndex != null) { // this one never needed it: hand its predecessor's on
      next.previousNodes = previousNodes;
      next.previousIndex = previousIndex;
    }
    return next;
  }

  /** @return every node the scheduler knows of, each with its pods */
  public List<NodeInfo> nodes() {
    return nodes;
  }

  /** @return the node of this name, if the snapshot has one */
  public Optional<NodeInfo> node(String name) {
    var index = byName;
    if (index == null) {
      var built = new HashMap<String, NodeInfo>(nodes.size() * 2);
      nodes.forEach(node -> built.put(node.name(), node));
      byName = index = built;
    }
    return Optional.ofNullable(index.get(name));
  }

  /**
   * @return the storage objects (claims, volumes, classes, CSI objects), with the volumes reserved for pods
   *     being bound shown as reserved; empty unless the policy reads them
   */
  public Storage storage() {
    return storage;
  }

  /**
   * @return the slices, classes, claims and taint rules dynamic resource allocation reads, with the allocations the
   *     scheduler made for pods being bound; empty where the policy reads none
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  public DynamicResources dynamicResources() {
    return dynamicResources;
  }

  /**
   * @return every PodDisruptionBudget of the cluster; empty unless the policy {@link FinderFunc#reads() reads}
   *     {@link ClusterData#POD_DISRUPTION_BUDGETS}
   */
  public List<PodDisruptionBudget> disruptionBudgets() {
    return disruptionBudgets;
  }

  /**
   * @return the pending pods nominated to nodes by preemption, whose room a decision for a pod of lower
   *     priority must leave free; {@link Nominations#NONE} unless the scheduler sets them
   */
  public Nominations nominations() {
    return nominations;
  }

  /** @return each namespace's labels, by namespace name; empty unless the policy reads namespaces */
  public Map<String, Map<String, String>> namespaces() {
    return namespaces;
  }

  /**
   * @return the labels of the namespace {@code name}; empty if the snapshot does not know it (as
   *     kube-scheduler takes a namespace it cannot find)
   */
  public Map<String, String> namespaceLabels(String name) {
    return namespaces.getOrDefault(name, Map.of());
  }

  /** @return the selectors of Services and workload controllers, of every namespace */
  public List<WorkloadSelector> workloads() {
    return workloads;
  }

  /** @return the selectors of Services and workload controllers in {@code namespace} */
  public List<WorkloadSelector> workloadsIn(String namespace) {
    var index = workloadsByNamespace;
    if (index == null) {
      var built = new HashMap<String, List<WorkloadSelector>>();
      workloads.forEach(w -> built.computeIfAbsent(w.namespace(), n -> new ArrayList<>()).add(w));
      built.replaceAll((n, list) -> List.copyOf(list));
      workloadsByNamespace = index = built;
    }
    return index.getOrDefault(namespace, List.of());
  }

  /** @return the nodes with at least one pod that has pod affinity or anti-affinity terms of any kind */
  public List<NodeInfo> nodesWithPodAffinity() {
    var list = withAffinity;
    if (list == null) {
      withAffinity = list = nodesWith(HAS_AFFINITY);
    }
    return list;
  }

  /** @return the nodes with at least one pod that has a required pod anti-affinity term */
  public List<NodeInfo> nodesWithRequiredPodAntiAffinity() {
    var list = withRequiredAntiAffinity;
    if (list == null) {
      withRequiredAntiAffinity = list = nodesWith(HAS_REQUIRED_ANTI_AFFINITY);
    }
    return list;
  }

  /**
   * How many nodes hold an image known by {@code name} ({@link NodeInfo#images()}, each node counted once):
   * kube-scheduler's {@code ImageStateSummary.NumNodes}, which its snapshot keeps up to date as this one does.
   *
   * @param name an image name exactly as nodes report it
   * @return the number of nodes, 0 if none holds it
   */
  public int nodesHoldingImage(String name) {
    return index().imageHolders().getOrDefault(name, 0);
  }

  private List<NodeInfo> nodesWith(byte flag) {
    var known = index();
    int count = flag == HAS_AFFINITY ? known.withAffinity() : known.withRequiredAntiAffinity();
    if (count == 0) {
      return List.of();
    }
    var all = known.flags();
    var found = new ArrayList<NodeInfo>(count);
    for (int i = 0; i < all.length; i++) {
      if ((all[i] & flag) != 0) {
        found.add(nodes.get(i));
      }
    }
    return List.copyOf(found);
  }

  /**
   * What a snapshot found out about its nodes: per node, in order, {@link #HAS_AFFINITY} and {@link
   * #HAS_REQUIRED_ANTI_AFFINITY}; how many nodes have each; per image name, how many nodes hold it. Never
   * modified once built (a derived index copies what it changes).
   */
  private record NodeIndex(
      byte[] flags, int withAffinity, int withRequiredAntiAffinity, Map<String, Integer> imageHolders) {}

  private NodeIndex index() {
    var computed = index;
    if (computed != null) {
      return computed;
    }
    var oldNodes = previousNodes;
    var old = previousIndex;
    computed =
        oldNodes != null && old != null && oldNodes.size() == nodes.size()
            ? new IndexUpdate(oldNodes, old).applyTo(nodes)
            : indexOf(nodes);
    index = computed;
    previousNodes = null;
    previousIndex = null;
    return computed;
  }

  private static NodeIndex indexOf(List<NodeInfo> nodes) {
    var flags = new byte[nodes.size()];
    var holders = new HashMap<String, Integer>();
    int withAffinity = 0;
    int withRequiredAntiAffinity = 0;
    for (int i = 0; i < flags.length; i++) {
      var node = nodes.get(i);
      flags[i] = flagsOf(node);
      withAffinity += has(flags[i], HAS_AFFINITY);
      withRequiredAntiAffinity += has(flags[i], HAS_REQUIRED_ANTI_AFFINITY);
      countImages(node, holders, 1);
    }
    return new NodeIndex(flags, withAffinity, withRequiredAntiAffinity, holders);
  }

  private static int has(byte flags, byte flag) {
    return (flags & flag) != 0 ? 1 : 0;
  }

  /**
   * The index of a node list made from that of the list it replaces, position by position: at the positions a
   * {@link DerivedList} names when it was made from the old list, else at every position; only where the
   * node is another object. The image counts are copied only when a changed node holds other images
   * (placing a pod keeps the node's image list, a node's update mostly brings the same images).
   */
  private static final class IndexUpdate {
    private final List<NodeInfo> oldNodes;
    private final byte[] oldFlags;
    private final byte[] flags;
    private int withAffinity;
    private int withRequiredAntiAffinity;
    private Map<String, Integer> holders;
    private boolean holdersCopied;

    IndexUpdate(List<NodeInfo> oldNodes, NodeIndex old) {
      this.oldNodes = oldNodes;
      this.oldFlags = old.flags();
      this.flags = old.flags().clone();
      this.withAffinity = old.withAffinity();
      this.withRequiredAntiAffinity = old.withRequiredAntiAffinity();
      this.holders = old.imageHolders();
    }

    NodeIndex applyTo(List<NodeInfo> nodes) {
      if (nodes instanceof DerivedList<?> derived && derived.base() == oldNodes) {
        for (int i : derived.changedPositions()) {
          update(i, nodes.get(i));
        }
      } else {
        for (int i = 0; i < flags.length; i++) {
          update(i, nodes.get(i));
        }
      }
      return new NodeIndex(flags, withAffinity, withRequiredAntiAffinity, holders);
    }

    private void update(int i, NodeInfo node) {
      var was = oldNodes.get(i);
      if (was == node) {
        return;
      }
      byte before = oldFlags[i];
      byte after = flagsAfter(was, before, node);
      flags[i] = after;
      withAffinity += has(after, HAS_AFFINITY) - has(before, HAS_AFFINITY);
      withRequiredAntiAffinity += has(after, HAS_REQUIRED_ANTI_AFFINITY) - has(before, HAS_REQUIRED_ANTI_AFFINITY);
      // A node's update brings a new image list, mostly the same images: compared, so that the counts of
      // every image in the cluster are not copied for nothing (a placed pod keeps the list itself).
      if (was.images() != node.images() && !was.images().equals(node.images())) {
        if (!holdersCopied) {
          holders = new HashMap<>(holders);
          holdersCopied = true;
        }
        countImages(was, holders, -1);
        countImages(node, holders, 1);
      }
    }
  }

  /** Adds {@code delta} to the count of every image name {@code node} holds, once per name; drops a 0. */
  private static void countImages(NodeInfo node, Map<String, Integer> holders, int delta) {
    var images = node.images();
    if (images.isEmpty()) {
      return;
    }
    var names = new HashSet<String>();
    for (var image : images) {
      names.addAll(image.names());
    }
    for (var name : names) {
      holders.merge(name, delta, (count, change) -> count + change == 0 ? null : count + change);
    }
  }

  private static byte flagsOf(NodeInfo node) {
    byte flags = 0;
    for (var pod : node.pods()) {
      flags |= flagsOf(pod);
      if (flags == (HAS_AFFINITY | HAS_REQUIRED_ANTI_AFFINITY)) {
        break;
      }
    }
    return flags;
  }

  private static byte flagsOf(PodInfo pod) {
    if (!pod.podAntiAffinity().required().isEmpty()) {
      return HAS_AFFINITY | HAS_REQUIRED_ANTI_AFFINITY;
    }
    return !pod.podAffinity().isEmpty() || !pod.podAntiAffinity().isEmpty() ? HAS_AFFINITY : 0;
  }

  /**
   * The flags of {@code node}, which takes the place of {@code old} (flags {@code oldFlags}) in the node list.
   * Where it holds {@code old}'s pods, each the same object or one with the same flags, in the same places, and
   * others after them (a node a pod was placed on, or a pod confirmed on), they are {@code oldFlags} and those
   * of the pods after: a comparison of references instead of a look at each pod's terms, on a node that holds
   * thousands of pods (a DaemonSet's node). Otherwise every pod is looked at.
   */
  private static byte flagsAfter(NodeInfo old, byte oldFlags, NodeInfo node) {
    if (old == node) {
      return oldFlags;
    }
    var before = old.pods();
    var after = node.pods();
    if (!old.name().equals(node.name()) || after.size() < before.size()) {
      return flagsOf(node);
    }
    for (int i = 0; i < before.size(); i++) {
      var was = before.get(i);
      var is = after.get(i);
      if (was != is && flagsOf(was) != flagsOf(is)) {
        return flagsOf(node);
      }
    }
    byte flags = oldFlags;
    for (int i = before.size(); i < after.size(); i++) {
      flags |= flagsOf(after.get(i));
    }
    return flags;
  }
}
