package io.kubesched.simulation;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.Policy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What-if: places pods on a snapshot of the cluster as the controller would, and binds nothing. The pods go through
 * the live loop's own scheduling queue (kube's order: higher priority first, then in the order given), its cache of
 * assumed pods, its decision step and its queueing hints: a pod that fits nowhere waits until a later placement or
 * eviction may help it, and is then tried again. Every binding counts as done at once, and every eviction as gone
 * at once.
 *
 * <pre>{@code
 * var result = Simulation.of(snapshot, DefaultPolicy.create())
 *     .addPods(template, 20)          // 20 copies: web-1 … web-20
 *     .cordonNodes(List.of("node-3"))
 *     .run();
 * result.pending().forEach(p -> System.out.println(p.pod().key() + ": " + p.message()));
 * }</pre>
 *
 * <p>Deterministic: a {@link Policy} is copied with its seed ({@link Builder#seed} sets another) and starts from
 * the first node, so the same input gives the same placement, and the same placement as a controller started on
 * that cluster with that policy and seed when the API server accepts every write. A {@link FinderFunc} of one's own
 * is called as the controller calls it, and is as deterministic as it is.
 *
 * <p>Pod groups are placed as the live loop places them, all or nothing, from the group objects given ({@link
 * Builder#podGroups}). Not simulated, and said so in the pod's outcome: the ResourceClaims that DynamicResources'
 * PostFilter would deallocate.
 *
 * <p>A builder is not thread-safe; the {@link SimulationResult} is immutable. {@link Builder#run} runs on the calling
 * thread, and a policy shared with a running controller is copied first, so a simulation never disturbs it.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class Simulation {

  private Simulation() {}

  /**
   * @param cluster the cluster as it is: its nodes with their pods, and whatever else the policy reads
   * @param policy the policy to place the pods with
   * @return a builder of a simulation over that cluster, with no pending pods yet
   */
  public static Builder of(ClusterSnapshot cluster, FinderFunc policy) {
    return new Builder(cluster, policy);
  }

  /**
   * How many copies of {@code template} the cluster can take, and what stops the next one: copies are placed one
   * at a time until one fits nowhere or {@code limit} are placed (kubernetes-sigs/cluster-capacity's question). No
   * pod is preempted for them.
   *
   * @param template the pod to copy, not bound; copies are named {@code name-1}, {@code name-2}, …
   * @param limit the most copies to try; at least 1
   * @throws IllegalArgumentException if {@code template} is bound or {@code limit} is less than 1
   */
  public static Capacity capacity(ClusterSnapshot cluster, FinderFunc policy, PodInfo template, int limit) {
    requirePending(template, "template");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, was " + limit);
    }
    var replay = new Replay(cluster, copyOf(policy, null).withoutPreemption());
    for (int i = 1; i <= limit; i++) {
      var copy = Builder.copy(template, i);
      replay.place(List.of(copy));
      if (replay.outcome(copy.uid()) instanceof PodOutcome.Pending pending) {
        return new Capacity(template, i - 1, pending.message(), replay.result());
      }
    }
    return new Capacity(template, limit, "", replay.result());
  }

  /**
   * Whether {@code nodeNames} can be drained, and where each of their pods would go: the nodes are cordoned, their
   * pods evicted (unless a PodDisruptionBudget or a missing controller forbids it, as {@code kubectl drain} and
   * cluster-autoscaler refuse) and placed again on the other nodes, without preempting anyone. DaemonSet pods stay:
   * a drain leaves them.
   *
   * @param nodeNames nodes of {@code cluster}
   * @throws IllegalArgumentException if a name is not a node of {@code cluster}
   */
  public static Drain drain(ClusterSnapshot cluster, FinderFunc policy, Collection<String> nodeNames) {
    return Drain.plan(cluster, copyOf(policy, null).withoutPreemption(), nodeNames);
  }

  /** A fresh copy of a {@link Policy} (its own round-robin start and preemption offsets), with {@code seed}. */
  static FinderFunc copyOf(FinderFunc policy, @Nullable Long seed) {
    if (policy instanceof Policy p) {
      var builder = p.toBuilder();
      if (seed != null) {
        builder.seed(seed);
      }
      return builder.build();
    }
    return policy;
  }

  static void requirePending(PodInfo pod, String what) {
    if (!pod.nodeName().isEmpty()) {
      throw new IllegalArgumentException(
          what + " pod " + pod.key() + " has spec.nodeName '" + pod.nodeName()
              + "': only pods not yet bound can be placed");
    }
  }

  /** The cluster, the changes to it, the pods to place and the policy. */
  public static final class Builder {

    private final ClusterSnapshot cluster;
    private final FinderFunc policy;
    private final List<PodInfo> pods = new ArrayList<>();
    private final List<NodeInfo> addedNodes = new ArrayList<>();
    private final Set<String> removed = new LinkedHashSet<>();
    private final Set<String> cordoned = new LinkedHashSet<>();
    private final Map<PodGroupRef, PodGroup> groups = new LinkedHashMap<>();
    private Set<PodGroupRef.Source> groupSources = EnumSet.allOf(PodGroupRef.Source.class);
    private boolean preemption = true;
    private @Nullable Long seed;

    private Builder(ClusterSnapshot cluster, FinderFunc policy) {
      this.cluster = Objects.requireNonNull(cluster, "cluster");
      this.policy = Objects.requireNonNull(policy, "policy");
    }

    /**
     * Adds pods to place, after those added before (the queue then orders them by priority, and keeps this order
     * among equals).
     *
     * @throws IllegalArgumentException if a pod is bound, or has the uid of a pod added before
     */
    public Builder pods(Collection<PodInfo> pending) {
      pending.forEach(this::add);
      return this;
    }

    /**
     * Adds {@code count} copies of {@code template}, named {@code name-1} … {@code name-count}, with uids {@code
     * uid-1} ….
     *
     * @throws IllegalArgumentException if {@code count} is less than 1, or {@code template} is bound
     */
    public Builder addPods(PodInfo template, int count) {
      requirePending(template, "template");
      if (count < 1) {
        throw new IllegalArgumentException("count of copies of pod " + template.key() + " must be at least 1, was "
            + count);
      }
      for (int i = 1; i <= count; i++) {
        add(copy(template, i));
      }
      return this;
    }

    static PodInfo copy(PodInfo template, int i) {
      return template.toBuilder().name(template.name() + "-" + i).uid(template.uid() + "-" + i).build();
    }

    private void add(PodInfo pod) {
      requirePending(pod, "pending");
      if (pods.stream().anyMatch(p -> p.uid().equals(pod.uid()))) {
        throw new IllegalArgumentException("pod " + pod.key() + " has uid '" + pod.uid()
            + "', which a pod added before has");
      }
      pods.add(pod);
    }

    /**
     * Adds {@code count} empty nodes like {@code template}, named {@code name-1} … {@code name-count}.
     *
     * @throws IllegalArgumentException if {@code count} is less than 1, {@code template} has pods, or a name is
     *     taken
     */
    public Builder addNodes(NodeInfo template, int count) {
      if (count < 1) {
        throw new IllegalArgumentException("count of copies of node " + template.name()
            + " must be at least 1, was " + count);
      }
      if (!template.pods().isEmpty()) {
        throw new IllegalArgumentException("node template " + template.name() + " has " + template.pods().size()
            + " pods; nodes are added empty");
      }
      for (int i = 1; i <= count; i++) {
        var name = template.name() + "-" + i;
        if (cluster.node(name).isPresent() || addedNodes.stream().anyMatch(n -> n.name().equals(name))) {
          throw new IllegalArgumentException("cannot add node " + name + ": the cluster has a node of that name");
        }
        addedNodes.add(new NodeInfo(name, template.labels(), template.taints(), template.unschedulable(),
            template.allocatable(), template.requested(), template.nonZeroRequested(), template.images(), List.of(),
            template.declaredFeatures()));
      }
      return this;
    }

    /**
     * Removes nodes, with the pods on them (they are not placed again: see {@link Simulation#drain} for that).
     *
     * @throws IllegalArgumentException if a name is not a node of the cluster
     */
    public Builder removeNodes(Collection<String> nodeNames) {
      removed.addAll(existing(nodeNames));
      return this;
    }

    /**
     * Cordons nodes: they keep their pods and take no new one (their {@code spec.unschedulable}).
     *
     * @throws IllegalArgumentException if a name is not a node of the cluster
     */
    public Builder cordonNodes(Collection<String> nodeNames) {
      cordoned.addAll(existing(nodeNames));
      return this;
    }

    private List<String> existing(Collection<String> nodeNames) {
      for (var name : nodeNames) {
        if (cluster.node(name).isEmpty()) {
          throw new IllegalArgumentException("no node named '" + name + "' in the cluster (" + cluster.nodes().size()
              + " nodes)");
        }
      }
      return List.copyOf(nodeNames);
    }

    /**
     * Adds the pod group objects the pods' groups are read from (a pod names its group by {@link
     * PodInfo#podGroupRef()}; a running controller gives those it knows: {@code Controller.podGroups()}). Their
     * members are placed as the live loop places them: all together, at least the group's minimum, or none. A
     * member of a group not given waits for it, as the live loop waits for a group object not created yet.
     *
     * @throws IllegalArgumentException if a group has the reference of one added before
     */
    public Builder podGroups(Collection<PodGroup> podGroups) {
      for (var group : podGroups) {
        if (groups.putIfAbsent(group.ref(), group) != null) {
          throw new IllegalArgumentException("pod group " + group.key() + " was given twice");
        }
      }
      return this;
    }

    /**
     * Sets the sources of pod groups honoured (all by default, as a controller's options): the members of a group
     * of another source are placed one by one, as a controller places them where the API server does not serve
     * that source ({@code Controller.podGroupSources()} says which it watches).
     */
    public Builder podGroupSources(Set<PodGroupRef.Source> sources) {
      this.groupSources = sources.isEmpty() ? Set.of() : Set.copyOf(sources);
      return this;
    }

    /** Places the pods without preemption: a pod that fits nowhere evicts no one. */
    public Builder withoutPreemption() {
      this.preemption = false;
      return this;
    }

    /** Sets the seed of a {@link Policy}'s tie-breaks (and preemption's dry-run offsets); ignored by other finders. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** @return what the policy would do with the pods on the changed cluster */
    public SimulationResult run() {
      return run(policy);
    }

    /**
     * The same simulation under the policy given here and under {@code candidate}, side by side.
     *
     * @return both results, and the pods whose outcome differs
     */
    public PolicyComparison compareWith(FinderFunc candidate) {
      return PolicyComparison.of(run(policy), run(Objects.requireNonNull(candidate, "candidate")));
    }

    private SimulationResult run(FinderFunc finder) {
      var copy = copyOf(finder, seed);
      return Replay.run(changedCluster(), preemption ? copy : copy.withoutPreemption(), pods, groups, groupSources);
    }

    private ClusterSnapshot changedCluster() {
      if (removed.isEmpty() && cordoned.isEmpty() && addedNodes.isEmpty()) {
        return cluster;
      }
      var nodes = new ArrayList<NodeInfo>(cluster.nodes().size() + addedNodes.size());
      var gone = new HashSet<>(removed);
      for (var node : cluster.nodes()) {
        if (gone.contains(node.name())) {
          continue;
        }
        nodes.add(cordoned.contains(node.name()) && !node.unschedulable() ? cordon(node) : node);
      }
      nodes.addAll(addedNodes);
      return cluster.withNodes(nodes);
    }
  }

  static NodeInfo cordon(NodeInfo node) {
    return new NodeInfo(node.name(), node.labels(), node.taints(), true, node.allocatable(), node.requested(),
        node.nonZeroRequested(), node.images(), node.pods(), node.declaredFeatures());
  }
}
