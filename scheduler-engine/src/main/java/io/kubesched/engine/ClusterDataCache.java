package io.kubesched.engine;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodDisruptionBudget;
import io.kubesched.api.Storage;
import io.kubesched.api.WorkloadSelector;
import io.kubesched.api.DynamicResources;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The parts of the cluster a policy reads beyond nodes and pods ({@link ClusterData}): each namespace's labels
 * and the {@link WorkloadSelector}s of Services and workload controllers, as the informers last saw them,
 * and the {@link ClusterSnapshot} of one decision built from them.
 *
 * <p>What a snapshot gets is an immutable map and list that are reused, the same instances, until a
 * namespace's labels or a workload's selector actually change: the status updates a ReplicaSet gets for
 * every pod it creates change nothing here and cost no copy. Each snapshot is derived from the previous one
 * ({@link ClusterSnapshot#withNodes}) while those stay the same, and while the {@link io.kubesched.api.Storage}
 * handed in (a {@link StorageCache}'s) is the same instance.
 *
 * <p>Thread-safe: the informers' handlers write, the scheduling thread reads.
 */
public final class ClusterDataCache {

  private final Set<ClusterData> reads;
  private final Map<String, Map<String, String>> namespaces = new HashMap<>();
  /** By {@code kind/namespace/name}. */
  private final Map<String, WorkloadSelector> workloads = new HashMap<>();
  private @Nullable Map<String, Map<String, String>> namespacesView = Map.of();
  private @Nullable List<WorkloadSelector> workloadsView = List.of();
  /** By {@code namespace/name}. */
  private final Map<String, PodDisruptionBudget> budgets = new HashMap<>();
  private @Nullable List<PodDisruptionBudget> budgetsView = List.of();
  /**
   * The snapshot of the last decision: the next is derived from it while namespaces and workloads are the
   * same, so what it found out about unchanged nodes is reused. Read and written by the scheduling thread.
   */
  private volatile @Nullable ClusterSnapshot lastSnapshot;

  /** @param reads what the policy reads: only these parts go into a snapshot */
  public ClusterDataCache(Set<ClusterData> reads) {
    this.reads = reads.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(reads));
  }

  /** @return what the policy reads */
  public Set<ClusterData> reads() {
    return reads;
  }

  /**
   * Records a namespace seen added or updated.
   *
   * @return whether this is news for scheduling: a namespace not known before, or other labels
   */
  public synchronized boolean putNamespace(String name, Map<String, String> labels) {
    var copy = Map.copyOf(labels);
    var before = namespaces.put(name, copy);
    if (copy.equals(before)) {
      return false;
    }
    namespacesView = null;
    return true;
  }

  /** Forgets a deleted namespace. */
  public synchronized void removeNamespace(String name) {
    if (namespaces.remove(name) != null) {
      namespacesView = null;
    }
  }

  /**
   * Records the selector of a workload seen added or updated; an object without one is forgotten.
   *
   * @param key the object's informer key with its kind, unique across kinds
   * @param selector the object's selector, or null if it has none
   */
  public synchronized void putWorkload(String key, @Nullable WorkloadSelector selector) {
    if (selector == null) {
      removeWorkload(key);
      return;
    }
    if (!selector.equals(workloads.put(key, selector))) {
      workloadsView = null;
    }
  }

  /** Forgets a deleted workload. */
  public synchronized void removeWorkload(String key) {
    if (workloads.remove(key) != null) {
      workloadsView = null;
    }
  }

  /**
   * Records a PodDisruptionBudget seen added or updated.
   *
   * @param key the budget's {@code namespace/name}
   */
  public synchronized void putDisruptionBudget(String key, PodDisruptionBudget budget) {
    if (!budget.equals(budgets.put(key, budget))) {
      budgetsView = null;
    }
  }

  /** Forgets a deleted PodDisruptionBudget. */
  public synchronized void removeDisruptionBudget(String key) {
    if (budgets.remove(key) != null) {
      budgetsView = null;
    }
  }

  /** @return every PodDisruptionBudget, in no particular order; the same instance until one changes */
  public synchronized List<PodDisruptionBudget> disruptionBudgets() {
    var view = budgetsView;
    if (view == null) {
      budgetsView = view = List.copyOf(budgets.values());
    }
    return view;
  }

  /** @return each namespace's labels; the same instance until one changes */
  public synchronized Map<String, Map<String, String>> namespaces() {
    var view = namespacesView;
    if (view == null) {
      namespacesView = view = Map.copyOf(namespaces);
    }
    return view;
  }

  /** @return every workload's selector, in no particular order; the same instance until one changes */
  public synchronized List<WorkloadSelector> workloads() {
    var view = workloadsView;
    if (view == null) {
      workloadsView = view = List.copyOf(workloads.values());
    }
    return view;
  }

  /**
   * @return the snapshot of one decision: {@code nodes}, and the namespaces and workloads if the policy reads
   *     them (a policy that reads none gets a snapshot of the nodes alone); no storage objects
   */
  public ClusterSnapshot snapshot(List<NodeInfo> nodes) {
    return snapshot(nodes, Storage.empty());
  }

  /**
   * @param storage the storage objects of this decision ({@link StorageCache#storage()}), {@link
   *     Storage#empty()} where the policy reads none; the snapshot is derived from the previous one without a
   *     copy while this is the same instance as before
   * @return the snapshot of one decision: {@code nodes}, the namespaces and workloads if the policy reads
   *     them, and {@code storage}
   */
  public ClusterSnapshot snapshot(List<NodeInfo> nodes, Storage storage) {
    return snapshot(nodes, storage, Nominations.NONE);
  }

  /**
   * @param nominations the pods preemption nominated to nodes ({@code SchedulingQueue.nominations()}): kept in
   *     the snapshot this cache derives the next one from, so that what that snapshot found out about its nodes
   *     is reused, with or without nominations
   * @return the snapshot of one decision: {@code nodes}, the namespaces and workloads if the policy reads them,
   *     {@code storage} and {@code nominations}
   */
  public ClusterSnapshot snapshot(List<NodeInfo> nodes, Storage storage, Nominations nominations) {
    return snapshot(nodes, storage, DynamicResources.empty(), nominations);
  }

  /**
   * As {@link #snapshot(List, Storage, Nominations)}, with {@code dynamicResources} (the {@link DeviceCache}'s,
   * where the policy reads dynamic resources); the last snapshot is reused while it carries the same instance.
   */
  public ClusterSnapshot snapshot(
      List<NodeInfo> nodes, Storage storage, DynamicResources dynamicResources, Nominations nominations) {
    Objects.requireNonNull(nodes, "nodes");
    Objects.requireNonNull(dynamicResources, "dynamicResources");
    Objects.requireNonNull(storage, "storage");
    Objects.requireNonNull(nominations, "nominations");
    var last = lastSnapshot;
    ClusterSnapshot snapshot;
    if (reads.isEmpty()) {
      snapshot = last == null ? ClusterSnapshot.of(nodes) : last.withNodes(nodes);
    } else {
      var namespaces = namespaces();
      var workloads = workloads();
      snapshot =
          last != null && last.namespaces() == namespaces && last.workloads() == workloads
              ? last.withNodes(nodes)
              : ClusterSnapshot.of(nodes, namespaces, workloads);
    }
    if (snapshot.storage() != storage) {
      snapshot = snapshot.withStorage(storage);
    }
    if (snapshot.dynamicResources() != dynamicResources) {
      snapshot = snapshot.withDynamicResources(dynamicResources);
    }
    if (reads.contains(ClusterData.POD_DISRUPTION_BUDGETS)) {
      var disruptionBudgets = disruptionBudgets();
      if (snapshot.disruptionBudgets() != disruptionBudgets) {
        snapshot = snapshot.withDisruptionBudgets(disruptionBudgets);
      }
    }
    if (snapshot.nominations() != nominations) {
      snapshot = snapshot.withNominations(nominations);
    }
    lastSnapshot = snapshot;
    return snapshot;
  }
}
