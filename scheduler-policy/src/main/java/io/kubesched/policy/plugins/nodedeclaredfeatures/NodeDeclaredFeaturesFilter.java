package io.kubesched.policy.plugins.nodedeclaredfeatures;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.Reason;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * kube-scheduler's {@code NodeDeclaredFeatures} plugin (GA and always on in 1.37): a node takes a pod only if its
 * {@code status.declaredFeatures} holds every feature the pod's spec needs, as kube's feature registry infers them
 * ({@link Features}): {@code RestartAllContainersOnContainerExits} for a container restart rule that restarts all
 * containers, {@code UserNamespacesHostNetworkSupport} for {@code hostNetwork} with {@code hostUsers: false}, {@code
 * VolumeBindMountOptions} for a volume mount with {@code bindMountOptions}. A node that lacks one is rejected with
 * {@link UnsatisfiedFeatures} and code {@link FilterResult.Code#UNSCHEDULABLE_AND_UNRESOLVABLE}: evicting pods
 * declares no feature; only the node's update does (the controller's node update event moves the waiting pods when
 * a node's declared features change).
 *
 * <p>{@link #prepare} infers the pod's needs once; a pod that needs none skips the filter (kube's PreFilter {@code
 * Skip}). Not followed: kube skips the plugin for a pod whose in-place resize is deferred when the alpha gate {@code
 * InPlacePodVerticalScalingSchedulerPreemption} is on; it is off in 1.37 and this library has no such gate.
 * Stateless and thread-safe.
 */
public final class NodeDeclaredFeaturesFilter implements Filter, PreFilter {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "NodeDeclaredFeatures";

  private final FeatureRegistry registry;
  private final ComponentVersion version;

  /** Creates the filter with kube 1.37's registered features, as kube-scheduler v1.37.2 infers them. */
  public NodeDeclaredFeaturesFilter() {
    this(FeatureRegistry.DEFAULT, ComponentVersion.KUBE_SCHEDULER);
  }

  /** A filter over other features, or as a scheduler of another version infers them (tests). */
  NodeDeclaredFeaturesFilter(FeatureRegistry registry, ComponentVersion version) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.version = Objects.requireNonNull(version, "version");
  }

  @Override
  public String name() {
    return NAME;
  }

  /** {@inheritDoc} As kube-scheduler's: kube registers Node Add and UpdateNodeDeclaredFeature. */
  @Override
  public Set<ClusterChange> retriedOn() {
    return ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_DECLARED_FEATURES);
  }

  /**
   * {@inheritDoc} As kube 1.37's hint: any node added; a node updated only if its declared features changed (as a
   * list, in order).
   */
  @Override
  public boolean isSchedulableAfter(PodInfo pod, ClusterUpdate update) {
    return !(update instanceof ClusterUpdate.NodeUpdated updated)
        || !updated.before().declaredFeatures().equals(updated.after().declaredFeatures());
  }

  /** Infers the pod's needs on every call: {@link #prepare} does it once per pod. */
  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    return check(required(pod), node);
  }

  /**
   * @return {@link PreFilter#skip} for a pod that needs no declared feature; else a filter that checks each node's
   *     declared features against the pod's needs, inferred once here
   */
  @Override
  public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
    var required = required(pod);
    return required.isEmpty() ? PreFilter.skip(NAME) : new Prepared(required);
  }

  /** @return the names of the features a node must declare to take {@code pod}, sorted */
  public Set<String> required(PodInfo pod) {
    return registry.inferForScheduling(pod, version);
  }

  static FilterResult check(Set<String> required, NodeInfo node) {
    if (required.isEmpty() || node.declaredFeatures().containsAll(required)) {
      return FilterResult.fit();
    }
    var missing = new ArrayList<String>(required.size());
    for (var feature : required) {
      if (!node.declaredFeatures().contains(feature)) {
        missing.add(feature);
      }
    }
    return FilterResult.unresolvable(new UnsatisfiedFeatures(missing));
  }

  @Override
  public String toString() {
    return NAME;
  }

  /**
   * The node does not declare every feature the pod needs. kube's message does not name them; they are kept here as
   * data, for explanations and logs.
   *
   * @param missing the features the pod needs that the node does not declare, sorted
   */
  public record UnsatisfiedFeatures(List<String> missing) implements Reason {

    /** kube-scheduler's message for this reason: {@value}. */
    public static final String MESSAGE = "node(s) didn't match Pod's required features";

    public UnsatisfiedFeatures {
      missing = List.copyOf(missing);
    }

    @Override
    public String message() {
      return MESSAGE;
    }
  }

  /**
   * One pod's filter: the features it needs.
   *
   * @param required the names of the features, sorted, at least one
   */
  record Prepared(Set<String> required) implements Filter {

    Prepared {
      required = Collections.unmodifiableSet(new TreeSet<>(required));
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      return check(required, node);
    }
  }
}
