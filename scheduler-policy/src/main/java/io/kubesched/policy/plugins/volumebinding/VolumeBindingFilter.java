package io.kubesched.policy.plugins.volumebinding;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.VolumeBinding;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.VolumeBinder;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-scheduler's {@code VolumeBinding} filter (PreFilter and Filter of {@code volume_binding.go}, with the
 * binder's {@code GetPodVolumeClaims} and {@code FindPodVolumes}): a pod's persistent volume claims must be
 * usable, and on each node every bound claim's volume must be reachable, and every unbound claim of a {@code
 * WaitForFirstConsumer} class must get an available volume the node can reach or one its class can provision
 * for the node.
 *
 * <p>{@link #prepare} checks the pod's claims once, in the pod's order. A claim that does not exist (or, for a
 * generic ephemeral volume, is not yet created or not controlled by the pod), is lost or is being deleted, or
 * an unbound claim whose binding is not delayed (an {@code Immediate} class, no class, a class that does not
 * exist, or a claim pre-bound by {@code volumeName} that the PersistentVolume controller has not finished
 * binding) rejects every node with kube's message ({@link ClaimsUnusable}). A claim counts as bound when it
 * names a volume and carries {@code pv.kubernetes.io/bind-completed}.
 *
 * <p>Per node, as kube's {@code FindPodVolumes}: a bound claim whose volume does not exist gives {@link
 * Conflict#VOLUME_NOT_FOUND}, one whose volume's node affinity excludes the node {@link
 * Conflict#NODE_AFFINITY}. The unbound claims annotated with {@code volume.kubernetes.io/selected-node} fit only
 * that node and are provisioned; the others, by increasing request, each take the smallest matching available
 * volume not yet taken by another claim of the pod (or the volume pre-bound to them); those without one are
 * provisioned: the class must have a provisioner other than {@code kubernetes.io/no-provisioner} and allowed
 * topologies that admit the node ({@link Conflict#NO_MATCHING_VOLUME} otherwise), and where its CSIDriver asks
 * for capacity checks a CSIStorageCapacity of the class whose node topology selects the node must have room
 * for the request ({@link Conflict#NOT_ENOUGH_SPACE} otherwise). Every rejection has code {@link
 * FilterResult.Code#UNSCHEDULABLE_AND_UNRESOLVABLE}, as in kube.
 *
 * <p>The prepared filter is a {@link VolumeBinder}: for the chosen node it returns a {@link
 * VolumeBinding.Static} per volume chosen and a {@link VolumeBinding.Provision} per claim to provision.
 *
 * <p>Deviations from kube: in-tree volumes are not translated to CSI before their node affinity is checked
 * (the model's volume carries the node affinity as given); a class's volumes are scanned by name, so of two
 * equally small volumes the first by name is chosen (kube's order is its cache's); a claim without a storage
 * request is read as requesting 0 bytes, as the model has it. Immutable and thread-safe; the prepared filters
 * are thread-safe too.
 */
public final class VolumeBindingFilter implements Filter, PreFilter {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "VolumeBinding";

  /** Kube's PreFilter message for a pod with an unbound claim whose binding is not delayed. */
  public static final String UNBOUND_IMMEDIATE_CLAIMS = "pod has unbound immediate PersistentVolumeClaims";

  private static final Set<ClusterData> READS = Set.of(
      ClusterData.PERSISTENT_VOLUME_CLAIMS,
      ClusterData.PERSISTENT_VOLUMES,
      ClusterData.STORAGE_CLASSES,
      ClusterData.CSI_DRIVERS,
      ClusterData.CSI_STORAGE_CAPACITIES);

  /** Why a node cannot serve the pod's volumes: kube's {@code ConflictReason}s, in the order kube reports them. */
  public enum Conflict implements Reason {
    /** A bound claim's volume does not admit the node (kube's {@code ErrReasonNodeConflict}). */
    NODE_AFFINITY("node(s) didn't match PersistentVolume's node affinity"),
    /** An unbound claim found no volume and cannot be provisioned for the node ({@code ErrReasonBindConflict}). */
    NO_MATCHING_VOLUME("node(s) didn't find available persistent volumes to bind"),
    /** The storage the node can reach has no room for a claim to provision ({@code ErrReasonNotEnoughSpace}). */
    NOT_ENOUGH_SPACE("node(s) did not have enough free storage"),
    /** A bound claim's volume does not exist ({@code ErrReasonPVNotExist}). */
    VOLUME_NOT_FOUND("node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)");

    private final String message;

    Conflict(String message) {
      this.message = message;
    }

    @Override
    public String message() {
      return message;
    }
  }

  /**
   * The pod's claims cannot be used on any node (kube's PreFilter failed).
   *
   * @param message kube's message, naming the claim where kube does
   */
  public record ClaimsUnusable(String message) implements Reason {}

  /** Creates the filter; it has no arguments. */
  public VolumeBindingFilter() {}

  @Override
  public String name() {
    return NAME;
  }

  /**
   * {@inheritDoc} As kube-scheduler's: kube registers Node Add and UpdateNodeLabel without a hint, so any such change
   * may help; storage objects move such a pod by its own hint.
   */
  @Override
  public Set<ClusterChange> retriedOn() {
    return ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_LABELS);
  }

  /** @return claims, volumes, storage classes, CSI drivers and CSI storage capacities */
  @Override
  public Set<ClusterData> reads() {
    return READS;
  }

  /**
   * Without {@link #prepare} this filter cannot see the pod's claims, as kube's Filter cannot without its
   * PreFilter state.
   *
   * @return always an {@linkplain FilterResult#error error}
   */
  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    return FilterResult.error(NAME + " filters only through prepare(pod, cluster)");
  }

  /**
   * @return the filter of {@code pod}'s nodes: one that rejects every node when kube's PreFilter fails, one
   *     that admits every node (and binds nothing) for a pod without claims, otherwise one that plans each
   *     node's volumes
   */
  @Override
  public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
    var planner = VolumePlanner.of(pod, cluster.storage());
    var rejection = planner.rejection();
    if (rejection.isPresent()) {
      return PreFilter.rejectPod(NAME, FilterResult.unresolvable(new ClaimsUnusable(rejection.get())));
    }
    return new Prepared(planner);
  }

  @Override
  public String toString() {
    return NAME;
  }

  /**
   * The filter prepared for one pod. It remembers each node's plan (as kube's {@code podVolumesByNode}), so
   * {@link #volumeBindings} hands out the bindings the node was accepted with. Thread-safe.
   */
  static final class Prepared implements Filter, VolumeBinder {
    private final VolumePlanner planner;
    private final ConcurrentHashMap<String, VolumePlanner.Plan> plans = new ConcurrentHashMap<>();

    Prepared(VolumePlanner planner) {
      this.planner = planner;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      var plan = plan(node);
      return plan.fits()
          ? FilterResult.fit()
          : FilterResult.unresolvable(plan.reasons().toArray(Reason[]::new));
    }

    /** @return the bindings planned for {@code node}; empty if the pod has no unbound claim or the node failed */
    @Override
    public List<VolumeBinding> volumeBindings(NodeInfo node) {
      var plan = plan(node);
      return plan.fits() ? plan.bindings() : List.of();
    }

    VolumePlanner.Plan plan(NodeInfo node) {
      if (!planner.hasClaims()) {
        return VolumePlanner.Plan.EMPTY;
      }
      return plans.computeIfAbsent(node.name(), n -> planner.plan(node));
    }
  }
}
