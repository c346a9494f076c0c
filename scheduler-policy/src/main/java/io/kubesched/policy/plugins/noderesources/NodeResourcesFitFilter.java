package io.kubesched.policy.plugins.noderesources;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.LabelSyntax;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.Reason.InsufficientResource;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.plugins.helper.ExtendedResources;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ClusterUpdate;
import java.util.HashSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * kube-scheduler's {@code NodeResourcesFit} filter plugin (formerly the {@code PodFitsResources} predicate):
 * the node must have room for the pod's requests and for one more pod.
 *
 * <p>Checks, in kube-scheduler's order, and reports every one that fails:
 *
 * <ol>
 *   <li>{@code pods}: the node's pods plus this one must not exceed its allocatable pod count ("Too many
 *       pods"); checked even for a pod that requests nothing;
 *   <li>then, only if the pod requests any CPU, memory, ephemeral storage or extended resource: each of
 *       {@code cpu}, {@code memory}, {@code ephemeral-storage} and each extended resource (sorted by name,
 *       where kube-scheduler's order is that of a Go map) that the pod requests must fit into the node's
 *       allocatable minus what its pods already request ("Insufficient cpu").
 * </ol>
 *
 * <p>The result is {@link FilterResult.Code#UNSCHEDULABLE_AND_UNRESOLVABLE} when the pod requests more of some
 * resource than the node has allocatable at all (no preemption can help), otherwise {@link
 * FilterResult.Code#UNSCHEDULABLE}; the pod count never makes a rejection unresolvable. Each reason is an
 * {@link InsufficientResource} with the pod's request, the node's requested amount (its pod count for {@code
 * pods}) and its allocatable amount.
 *
 * <p>The plugin's arguments {@code ignoredResources} (extended resources not to check) and {@code
 * ignoredResourceGroups} (prefixes before the {@code /} of extended resources not to check) are supported;
 * as in Kubernetes they never skip CPU, memory, ephemeral storage, hugepages or {@code kubernetes.io}
 * resources. Immutable and thread-safe.
 */
public final class NodeResourcesFitFilter implements Filter, PreFilter {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "NodeResourcesFit";

  private final Set<String> ignoredResources;
  private final Set<String> ignoredResourceGroups;
  /** The pod's extended resources a DeviceClass backs: left to DynamicResources on a node that does not offer them. */
  private final Set<String> backedByDra;

  /** Creates the filter without ignored resources. */
  public NodeResourcesFitFilter() {
    this(List.of(), List.of());
  }

  /**
   * Creates the filter with kube-scheduler's {@code NodeResourcesFitArgs}.
   *
   * @param ignoredResources extended resource names not to check, e.g. {@code example.com/foo}
   * @param ignoredResourceGroups prefixes of extended resource names not to check, e.g. {@code example.com}
   *     to skip every {@code example.com/...} resource
   * @throws IllegalArgumentException if a name is not a Kubernetes qualified name, or a group contains a
   *     {@code /}, as kube-scheduler's argument validation rejects them
   */
  public NodeResourcesFitFilter(
      Collection<String> ignoredResources, Collection<String> ignoredResourceGroups) {
    int i = 0;
    for (var resource : ignoredResources) {
      if (!LabelSyntax.isQualifiedName(resource)) {
        throw new IllegalArgumentException(
            "ignoredResources[" + i + "] must be a qualified name (an optional DNS subdomain prefix and "
                + "'/', then alphanumerics, '-', '_' or '.'), was '" + resource + "'");
      }
      i++;
    }
    i = 0;
    for (var group : ignoredResourceGroups) {
      if (group.contains("/") || !LabelSyntax.isQualifiedName(group)) {
        throw new IllegalArgumentException(
            "ignoredResourceGroups[" + i + "] must be a resource group name without '/', was '" + group
                + "'");
      }
      i++;
    }
    this.ignoredResources = Set.copyOf(ignoredResources);
    this.ignoredResourceGroups = Set.copyOf(ignoredResourceGroups);
    this.backedByDra = Set.of();
  }

  private NodeResourcesFitFilter(NodeResourcesFitFilter filter, Set<String> backedByDra) {
    this.ignoredResources = filter.ignoredResources;
    this.ignoredResourceGroups = filter.ignoredResourceGroups;
    this.backedByDra = Set.copyOf(backedByDra);
  }

  /**
   * kube's DRAExtendedResource (on in 1.37): an extended resource the pod requests that a DeviceClass backs
   * ({@code extendedResourceName}, or {@code deviceclass.resource.kubernetes.io/<class>}) is not checked on a node
   * that does not offer it (allocatable 0): DynamicResources allocates it there through a claim. The classes are
   * those of the snapshot, which holds them when the policy has DynamicResources (the loop watches them then).
   *
   * @return this filter for a pod requesting no such resource; else one that leaves them to DynamicResources
   */
  @Override
  public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
    var requested = pod.requests().extended();
    var resources = cluster.dynamicResources();
    if (requested.isEmpty() || resources.deviceClasses().isEmpty()) {
      return this;
    }
    var backed = new HashSet<String>();
    for (var resource : requested.keySet()) {
      if (ExtendedResources.deviceClassFor(resource, resources).isPresent()) {
        backed.add(resource);
      }
    }
    return backed.isEmpty() ? this : new NodeResourcesFitFilter(this, backed);
  }

  /** @return the extended resources this filter does not check */
  public Set<String> ignoredResources() {
    return ignoredResources;
  }

  /** @return the extended resource groups this filter does not check */
  public Set<String> ignoredResourceGroups() {
    return ignoredResourceGroups;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** {@inheritDoc} As kube-scheduler's: kube registers Node Add and UpdateNodeAllocatable, and AssignedPod Delete. */
  @Override
  public Set<ClusterChange> retriedOn() {
    return ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_ALLOCATABLE, ClusterChange.ASSIGNED_POD_DELETED);
  }

  /**
   * {@inheritDoc} As kube 1.37's hints: a pod's deletion helps if it was bound or nominated. A node added or whose allocatable changed helps only if the
   * pod's requests fit into its allocatable with no pod on it, and, for an update, the node now offers more pods or
   * more of a resource the pod requests. An extended resource the node does not offer at all is taken to fit and to
   * have grown: a DeviceClass may back it (kube's DRAExtendedResource), which a hint cannot see.
   */
  @Override
  public boolean isSchedulableAfter(PodInfo pod, ClusterUpdate update) {
    if (update instanceof ClusterUpdate.NodeAdded added) {
      return fitsEmpty(pod, added.node());
    }
    if (update instanceof ClusterUpdate.NodeUpdated updated) {
      return fitsEmpty(pod, updated.after()) && offersMore(pod, updated.before(), updated.after());
    }
    return !(update instanceof ClusterUpdate.AssignedPodDeleted deleted) || deleted.heldRoom();
  }

  /** kube's {@code isFit}: the pod's requests fit into the node's allocatable, with no pod on it. */
  private boolean fitsEmpty(PodInfo pod, NodeInfo node) {
    for (var shortage : insufficientResources(pod, NodeInfo.builder(node.name()).allocatable(node.allocatable()).build())) {
      if (!mayBeBackedByDevices(shortage.resource(), node)) {
        return false;
      }
    }
    return true;
  }

  /** kube's {@code haveAnyRequestedResourcesIncreased}. */
  private boolean offersMore(PodInfo pod, NodeInfo before, NodeInfo after) {
    var was = before.allocatable();
    var is = after.allocatable();
    if (is.pods() > was.pods()) {
      return true;
    }
    var request = pod.requests();
    if ((request.milliCpu() > 0 && is.milliCpu() > was.milliCpu())
        || (request.memory() > 0 && is.memory() > was.memory())
        || (request.ephemeralStorage() > 0 && is.ephemeralStorage() > was.ephemeralStorage())) {
      return true;
    }
    for (var resource : request.extended().keySet()) {
      if (request.extended(resource) > 0
          && (is.extended(resource) > was.extended(resource) || mayBeBackedByDevices(resource, after))) {
        return true;
      }
    }
    return false;
  }

  private boolean mayBeBackedByDevices(String resource, NodeInfo node) {
    return isExtendedResourceName(resource) && node.allocatable().extended(resource) == 0;
  }

  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    var insufficient = insufficientResources(pod, node);
    if (insufficient.isEmpty()) {
      return FilterResult.fit();
    }
    var code = FilterResult.Code.UNSCHEDULABLE;
    for (var reason : insufficient) {
      if (exceedsAllocatable(reason)) {
        code = FilterResult.Code.UNSCHEDULABLE_AND_UNRESOLVABLE;
      }
    }
    return new FilterResult.Rejected(code, List.<Reason>copyOf(insufficient));
  }

  /**
   * kube-scheduler's {@code Fits}: every resource the node lacks for the pod, in the order of the checks.
   *
   * @return the insufficient resources, not to be modified; empty if the pod fits
   */
  public List<InsufficientResource> insufficientResources(PodInfo pod, NodeInfo node) {
    // Created at the first shortage: most nodes have none, and this runs for every node examined.
    @Nullable List<InsufficientResource> result = null;
    var allocatable = node.allocatable();
    var used = node.requested();
    long podCount = node.pods().size();
    if (podCount + 1 > allocatable.pods()) {
      result = add(result, new InsufficientResource("pods", 1, podCount, allocatable.pods()));
    }
    var request = pod.requests();
    if (request.milliCpu() == 0
        && request.memory() == 0
        && request.ephemeralStorage() == 0
        && request.extended().isEmpty()) {
      return result == null ? List.of() : result;
    }
    result = check(result, "cpu", request.milliCpu(), used.milliCpu(), allocatable.milliCpu());
    result = check(result, "memory", request.memory(), used.memory(), allocatable.memory());
    result =
        check(
            result,
            "ephemeral-storage",
            request.ephemeralStorage(),
            used.ephemeralStorage(),
            allocatable.ephemeralStorage());
    if (request.extended().isEmpty()) {
      return result == null ? List.of() : result; // no iterator over an empty set, per node examined
    }
    for (var resource : new TreeSet<>(request.extended().keySet())) {
      if (isIgnored(resource) || (backedByDra.contains(resource) && allocatable.extended(resource) == 0)) {
        continue;
      }
      result =
          check(
              result,
              resource,
              request.extended(resource),
              used.extended(resource),
              allocatable.extended(resource));
    }
    return result == null ? List.of() : result;
  }

  /** @return {@code result} with the shortage of {@code resource} added, if there is one */
  private static @Nullable List<InsufficientResource> check(
      @Nullable List<InsufficientResource> result, String resource, long requested, long used, long capacity) {
    // Both amounts are non-negative, so the difference cannot overflow; it is negative on an overcommitted
    // node, which then has room for nothing.
    if (requested > 0 && requested > capacity - used) {
      return add(result, new InsufficientResource(resource, requested, used, capacity));
    }
    return result;
  }

  /**
   * @return {@code result} and {@code shortage}: one shortage, the usual case of a rejected node, as an
   *     immutable list that the rejection keeps without copying it (on a pod that fits nowhere that is one
   *     list instead of two for each node)
   */
  private static List<InsufficientResource> add(
      @Nullable List<InsufficientResource> result, InsufficientResource shortage) {
    if (result == null) {
      return List.of(shortage);
    }
    var more = new ArrayList<InsufficientResource>(result.size() + 1);
    more.addAll(result);
    more.add(shortage);
    return more;
  }

  /** Kubernetes marks a shortage unresolvable when the request exceeds the node's whole allocatable. */
  private static boolean exceedsAllocatable(InsufficientResource reason) {
    return !reason.resource().equals("pods") && reason.requested() > reason.capacity();
  }

  private boolean isIgnored(String resource) {
    if (!isExtendedResourceName(resource)) {
      return false;
    }
    int slash = resource.indexOf('/');
    return ignoredResources.contains(resource)
        || ignoredResourceGroups.contains(resource.substring(0, slash));
  }

  /**
   * Kubernetes' {@code IsExtendedResourceName}: a name with a domain outside {@code kubernetes.io}, not
   * starting with {@code requests.}, that is a qualified name once {@code requests.} is put in front.
   */
  static boolean isExtendedResourceName(String name) {
    return ExtendedResources.isExtendedResourceName(name);
  }

  @Override
  public String toString() {
    if (ignoredResources.isEmpty() && ignoredResourceGroups.isEmpty()) {
      return NAME;
    }
    return NAME
        + "{ignoredResources="
        + new TreeSet<>(ignoredResources)
        + ", ignoredResourceGroups="
        + new TreeSet<>(ignoredResourceGroups)
        + "}";
  }
}
