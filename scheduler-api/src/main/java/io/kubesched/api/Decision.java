package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.STABLE;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/** What a {@link FinderFunc} decides for one pod: a node, or that no node fits. */
@API(status = STABLE, since = "0.1.0")
public sealed interface Decision {

  /** @return a decision to bind the pod to {@code nodeName} */
  static Bind bind(String nodeName) {
    return new Bind(nodeName);
  }

  /**
   * @param volumeBindings what must be done for the pod's unbound claims before it is bound there
   * @return a decision to bind the pod to {@code nodeName} once its volumes are bound
   */
  static Bind bind(String nodeName, List<VolumeBinding> volumeBindings) {
    return new Bind(nodeName, volumeBindings);
  }

  /**
   * @param reasonsByNode for each node that was considered, why it does not fit (one or more reasons)
   * @return a decision that the pod fits nowhere now
   */
  static Unschedulable unschedulable(Map<String, List<String>> reasonsByNode) {
    return new Unschedulable(reasonsByNode, "", Set.of(), "", Nomination.CLEAR, List.of());
  }

  /**
   * @param reasonsByNode every node, each with the reason the pod was turned away before any node was looked at
   * @param preFilterMessage that reason, which the message states once (kube-scheduler's PreFilter rejection,
   *     e.g. {@code persistentvolumeclaim "data" not found})
   * @return a decision that the pod fits nowhere now, for a reason of its own rather than of the nodes'
   */
  static Unschedulable unschedulable(Map<String, List<String>> reasonsByNode, String preFilterMessage) {
    return new Unschedulable(reasonsByNode, preFilterMessage, Set.of(), "", Nomination.CLEAR, List.of());
  }

  /**
   * Bind the pod to a node.
   *
   * @param nodeName the node's name; must be one of the nodes the {@link FinderFunc} was given
   * @param volumeBindings what must be done for the pod's unbound PersistentVolumeClaims before it is bound,
   *     one entry per claim (kube-scheduler's VolumeBinding reserve and pre-bind); empty for a pod without
   *     unbound claims
   * @param claimAllocations what must be written to the pod's ResourceClaims before it is bound, one entry per
   *     claim (kube-scheduler's DynamicResources reserve and pre-bind); empty for a pod without claims
   */
  record Bind(String nodeName, List<VolumeBinding> volumeBindings, List<ClaimAllocation> claimAllocations)
      implements Decision {

    /** @throws IllegalArgumentException if {@code nodeName} is blank */
    public Bind {
      if (nodeName.isBlank()) {
        throw new IllegalArgumentException("nodeName must not be blank");
      }
      volumeBindings = List.copyOf(volumeBindings);
      claimAllocations = List.copyOf(claimAllocations);
    }

    /** A decision to bind to {@code nodeName} once the volumes are bound, with no claim to allocate. */
    public Bind(String nodeName, List<VolumeBinding> volumeBindings) {
      this(nodeName, volumeBindings, List.of());
    }

    /** A decision to bind to {@code nodeName} with no volume to bind first. */
    public Bind(String nodeName) {
      this(nodeName, List.of(), List.of());
    }

    /** @return this decision with the claims' allocations to write before binding */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    public Bind withClaimAllocations(List<ClaimAllocation> claimAllocations) {
      return new Bind(nodeName, volumeBindings, claimAllocations);
    }
  }

  /**
   * The pod fits on no node now. It stays pending and is tried again later, unless preemption makes room for it.
   *
   * @param reasonsByNode why each node was rejected, by node name
   * @param preFilterMessage when the pod was turned away before any node was looked at (kube-scheduler's
   *     PreFilter rejection: a claim that does not exist, say), why; empty when nodes were rejected one by one
   * @param unresolvableNodes the nodes of {@code reasonsByNode} that evicting pods could not make fit
   *     (kube-scheduler's {@code UnschedulableAndUnresolvable}: the wrong name, affinity, a taint, too small):
   *     never preemption candidates
   * @param postFilterMessage what preemption found, appended to the message (kube-scheduler's PostFilter
   *     status, e.g. {@code preemption: 0/3 nodes are available: 3 No preemption victims found for incoming
   *     pod.}); empty when nothing was tried
   * @param nomination what becomes of the pod's nomination: kept, cleared, or a node where room is made by
   *     evicting victims
   * @param claimDeallocations the pod's claims whose allocation is cleared so that they can be allocated on a node
   *     the pod can use (kube-scheduler's DynamicResources PostFilter, which clears at most one per attempt); empty
   *     when none
   * @param rejectors the names of the filters that turned the pod away, on some node or before any (kube-scheduler's
   *     {@code UnschedulablePlugins}); empty when not known (a {@link FinderFunc} of one's own, no node at all)
   * @param retriedOn the cluster changes the scheduling queue retries the pod on: those its rejectors register
   *     (kube-scheduler's queueing hints at the level of {@code EventsToRegister}); {@link ClusterChange#ALL} when
   *     not known. Changes the pod waits for by its own spec (a claim of its own, a pod its affinity selects) are
   *     not among them and move it anyway.
   * @param retryHint whether a change of a kind in {@code retriedOn} may let the pod fit: what its rejectors' hints
   *     answer (kube-scheduler's queueing hint functions); {@link RetryHint#ALWAYS} when not known
   */
  record Unschedulable(
      Map<String, List<String>> reasonsByNode,
      String preFilterMessage,
      Set<String> unresolvableNodes,
      String postFilterMessage,
      Nomination nomination,
      List<ClaimDeallocation> claimDeallocations,
      @API(status = EXPERIMENTAL, since = "0.1.0") Set<String> rejectors,
      @API(status = EXPERIMENTAL, since = "0.1.0") Set<ClusterChange> retriedOn,
      @API(status = EXPERIMENTAL, since = "0.1.0") RetryHint retryHint)
      implements Decision {

    /** kube-scheduler's message when the cluster has no node. */
    public static final String NO_NODES = "no nodes available to schedule pods";

    /**
     * Copies the reasons and the unresolvable nodes, unless they are already this record's own copies (a
     * decision derived with {@link #withUnresolvableNodes} or {@link #withPostFilter} shares them).
     *
     * <p>The copies are hash maps and sets, not {@code Map.copyOf}'s: these are keyed by node name and hold
     * every node of a large cluster on every failed attempt, and {@code Map.copyOf}'s open addressing degrades
     * to long probe runs on names with a numbered suffix (building one of the 15 000 nodes {@code node-00000},
     * {@code node-00001}, … took about 130 ms).
     *
     * @throws NullPointerException if a node name, a reason list or a reason is null
     */
    public Unschedulable {
      reasonsByNode = NodeReasons.copyOf(reasonsByNode);
      unresolvableNodes = NodeNames.copyOf(unresolvableNodes);
      claimDeallocations = List.copyOf(claimDeallocations);
      rejectors = Set.copyOf(rejectors);
      retriedOn = retriedOn.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(retriedOn));
      Objects.requireNonNull(retryHint, "retryHint");
    }

    /** A decision whose rejectors give no hint finer than the changes they register. */
    public Unschedulable(
        Map<String, List<String>> reasonsByNode,
        String preFilterMessage,
        Set<String> unresolvableNodes,
        String postFilterMessage,
        Nomination nomination,
        List<ClaimDeallocation> claimDeallocations,
        Set<String> rejectors,
        Set<ClusterChange> retriedOn) {
      this(reasonsByNode, preFilterMessage, unresolvableNodes, postFilterMessage, nomination, claimDeallocations,
          rejectors, retriedOn, RetryHint.ALWAYS);
    }

    /** A decision that names no rejecting filter: retried on every change. */
    public Unschedulable(
        Map<String, List<String>> reasonsByNode,
        String preFilterMessage,
        Set<String> unresolvableNodes,
        String postFilterMessage,
        Nomination nomination,
        List<ClaimDeallocation> claimDeallocations) {
      this(reasonsByNode, preFilterMessage, unresolvableNodes, postFilterMessage, nomination, claimDeallocations,
          Set.of(), ClusterChange.ALL);
    }

    /** A decision that deallocates no claim. */
    public Unschedulable(
        Map<String, List<String>> reasonsByNode,
        String preFilterMessage,
        Set<String> unresolvableNodes,
        String postFilterMessage,
        Nomination nomination) {
      this(reasonsByNode, preFilterMessage, unresolvableNodes, postFilterMessage, nomination, List.of());
    }

    /**
     * @param unresolvableNodes the nodes that evicting pods could not make fit
     * @return this decision with those nodes marked so
     */
    public Unschedulable withUnresolvableNodes(Set<String> unresolvableNodes) {
      return new Unschedulable(
          reasonsByNode, preFilterMessage, unresolvableNodes, postFilterMessage, nomination, claimDeallocations,
          rejectors, retriedOn, retryHint);
    }

    /**
     * @param postFilterMessage what preemption found (appended to {@link #message})
     * @param nomination what becomes of the pod's nomination
     * @return this decision with the outcome of preemption
     */
    public Unschedulable withPostFilter(String postFilterMessage, Nomination nomination) {
      return new Unschedulable(
          reasonsByNode, preFilterMessage, unresolvableNodes, postFilterMessage, nomination, claimDeallocations,
          rejectors, retriedOn, retryHint);
    }

    /**
     * @param claimDeallocations the pod's claims to deallocate
     * @return this decision deallocating those claims
     */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    public Unschedulable withClaimDeallocations(List<ClaimDeallocation> claimDeallocations) {
      return new Unschedulable(
          reasonsByNode, preFilterMessage, unresolvableNodes, postFilterMessage, nomination, claimDeallocations,
          rejectors, retriedOn, retryHint);
    }

    /**
     * @param rejectors the names of the filters that turned the pod away
     * @param retriedOn the cluster changes they register
     * @param retryHint whether a change of those kinds may let the pod fit
     * @return this decision naming them
     */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    public Unschedulable withRejectors(Set<String> rejectors, Set<ClusterChange> retriedOn, RetryHint retryHint) {
      return new Unschedulable(
          reasonsByNode, preFilterMessage, unresolvableNodes, postFilterMessage, nomination, claimDeallocations,
          rejectors, retriedOn, retryHint);
    }

    /**
     * The message kube-scheduler gives in the same case, e.g. {@code "0/6 nodes are available: 1 node(s)
     * had untolerated taint(s), 2 Insufficient memory, 3 Insufficient cpu."}: the number of nodes,
     * then each distinct reason with the number of nodes that gave it, sorted as Go sorts strings (by
     * UTF-8 bytes).
     *
     * <p>With no node at all it is kube-scheduler's {@value #NO_NODES}. When the pod was turned away before
     * any node was looked at, the reason is stated once: {@code "0/6 nodes are available: persistentvolumeclaim
     * \"data\" not found."}. The PostFilter's status follows after a space, as kube-scheduler adds it: {@value
     * ClaimDeallocation#COMPLETED} when a claim is deallocated ({@value ClaimDeallocation#DELETION_COMPLETED} when
     * deleted), then (after {@code ", "}) the {@link
     * #postFilterMessage}, in the order of kube's default profile (DynamicResources before DefaultPreemption).
     *
     * @param nodeCount how many nodes the decision was made over
     */
    public String message(int nodeCount) {
      if (nodeCount == 0) {
        return NO_NODES;
      }
      if (!preFilterMessage.isEmpty()) {
        return withPostFilter("0/" + nodeCount + " nodes are available: " + preFilterMessage + ".");
      }
      var counts = new TreeMap<String, Integer>();
      reasonsByNode.values().forEach(reasons -> reasons.forEach(r -> counts.merge(r, 1, Integer::sum)));
      var parts = new ArrayList<String>();
      counts.forEach((reason, count) -> parts.add(count + " " + reason));
      parts.sort(Unschedulable::compareAsUtf8);
      var message = new StringBuilder("0/" + nodeCount + " nodes are available");
      message.append(':');
      if (!parts.isEmpty()) {
        message.append(' ').append(String.join(", ", parts)).append('.');
      }
      return withPostFilter(message.toString());
    }

    private String withPostFilter(String message) {
      var released = claimDeallocations.isEmpty() ? "" : claimDeallocations.get(0).completed();
      var postFilter =
          released.isEmpty() ? postFilterMessage
              : postFilterMessage.isEmpty() ? released
              : released + ", " + postFilterMessage;
      return postFilter.isEmpty() ? message : message + " " + postFilter;
    }

    /** Orders strings as Go's {@code sort.Strings} does: by UTF-8 bytes, which is by code point. */
    private static int compareAsUtf8(String a, String b) {
      return Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
    }

    /** An unmodifiable copy of the reasons by node, in a {@link HashMap}; immutable, so safe to share. */
    private static final class NodeReasons extends AbstractMap<String, List<String>> {
      private final Map<String, List<String>> byNode;

      private NodeReasons(Map<String, List<String>> byNode) {
        this.byNode = Collections.unmodifiableMap(byNode);
      }

      static Map<String, List<String>> copyOf(Map<String, List<String>> reasonsByNode) {
        if (reasonsByNode instanceof NodeReasons own) {
          return own;
        }
        var copy = new HashMap<String, List<String>>(reasonsByNode.size() * 4 / 3 + 1);
        reasonsByNode.forEach(
            (node, reasons) -> copy.put(Objects.requireNonNull(node, "node"), List.copyOf(reasons)));
        return new NodeReasons(copy);
      }

      @Override
      public Set<Entry<String, List<String>>> entrySet() {
        return byNode.entrySet();
      }

      @Override
      public int size() {
        return byNode.size();
      }

      @Override
      public boolean containsKey(@Nullable Object key) {
        return byNode.containsKey(key);
      }

      @Override
      public @Nullable List<String> get(@Nullable Object key) {
        return byNode.get(key);
      }
    }

    /** An unmodifiable copy of a set of node names, in a {@link HashSet}; immutable, so safe to share. */
    private static final class NodeNames extends AbstractSet<String> {
      private final Set<String> names;

      private NodeNames(Set<String> names) {
        this.names = Collections.unmodifiableSet(names);
      }

      static Set<String> copyOf(Set<String> names) {
        if (names instanceof NodeNames own) {
          return own;
        }
        if (names.isEmpty()) {
          return Set.of();
        }
        var copy = new HashSet<String>(names.size() * 4 / 3 + 1);
        names.forEach(name -> copy.add(Objects.requireNonNull(name, "node")));
        return new NodeNames(copy);
      }

      @Override
      public Iterator<String> iterator() {
        return names.iterator();
      }

      @Override
      public int size() {
        return names.size();
      }

      @Override
      public boolean contains(@Nullable Object name) {
        return names.contains(name);
      }
    }
  }
}
