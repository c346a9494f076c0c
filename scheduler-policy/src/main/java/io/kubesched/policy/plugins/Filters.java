package io.kubesched.policy.plugins;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs;
import io.kubesched.policy.plugins.dynamicresources.DynamicResourcesFilter;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFilter;
import io.kubesched.policy.plugins.nodeaffinity.NodeAffinityFilter;
import io.kubesched.policy.plugins.nodedeclaredfeatures.NodeDeclaredFeaturesFilter;
import io.kubesched.policy.plugins.nodelabel.NodeLabelPresenceFilter;
import io.kubesched.policy.plugins.nodename.NodeNameFilter;
import io.kubesched.policy.plugins.nodeports.NodePortsFilter;
import io.kubesched.policy.plugins.noderesources.NodeResourcesFitFilter;
import io.kubesched.policy.plugins.nodeunschedulable.NodeUnschedulableFilter;
import io.kubesched.policy.plugins.nodevolumelimits.NodeVolumeLimitsFilter;
import io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFilter;
import io.kubesched.policy.plugins.tainttoleration.TaintTolerationFilter;
import io.kubesched.policy.plugins.volumebinding.VolumeBindingFilter;
import io.kubesched.policy.plugins.volumerestrictions.VolumeRestrictionsFilter;
import io.kubesched.policy.plugins.volumezone.VolumeZoneFilter;
import java.util.Collection;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The built-in filters, each with the semantics of the kube-scheduler plugin it is named after. Every method
 * returns a new, immutable, thread-safe filter.
 *
 * <p>Each method returns the plugin as a {@link Filter}; what else it is ({@link PreFilter}, a scorer) the
 * policy finds out for itself. The plugins' classes live in packages of their own that the module does not
 * export: they are not API.
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class Filters {

  private Filters() {}

  /**
   * The filters of kube-scheduler's default profile that this library implements, in the order the default
   * profile runs them: {@code NodeName}, {@code NodeUnschedulable}, {@code TaintToleration}, {@code
   * NodeAffinity}, {@code NodePorts}, {@code NodeResourcesFit}, {@code VolumeRestrictions}, {@code
   * NodeVolumeLimits}, {@code VolumeBinding}, {@code VolumeZone}, {@code PodTopologySpread} (with the system
   * default constraints), {@code InterPodAffinity}, {@code DynamicResources}, {@code NodeDeclaredFeatures}.
   *
   * @return a new immutable list of the default filters, without arguments
   */
  public static List<Filter> defaults() {
    return List.of(
        nodeName(),
        nodeUnschedulable(),
        taintToleration(),
        nodeAffinity(),
        nodePorts(),
        resourcesFit(),
        volumeRestrictions(),
        nodeVolumeLimits(),
        volumeBinding(),
        volumeZone(),
        podTopologySpread(),
        interPodAffinity(),
        dynamicResources(),
        nodeDeclaredFeatures());
  }

  /** @return kube-scheduler's {@code NodeName} filter */
  public static Filter nodeName() {
    return new NodeNameFilter();
  }

  /** @return kube-scheduler's {@code NodeUnschedulable} filter */
  public static Filter nodeUnschedulable() {
    return new NodeUnschedulableFilter();
  }

  /** @return kube-scheduler's {@code TaintToleration} filter */
  public static Filter taintToleration() {
    return new TaintTolerationFilter();
  }

  /** @return kube-scheduler's {@code NodeAffinity} filter, without added affinity */
  public static Filter nodeAffinity() {
    return new NodeAffinityFilter();
  }

  /**
   * @param addedRequired the required terms of the plugin's {@code addedAffinity}: every pod's node must
   *     match one of them
   * @return kube-scheduler's {@code NodeAffinity} filter with added affinity
   */
  public static Filter nodeAffinity(List<NodeSelectorTerm> addedRequired) {
    return new NodeAffinityFilter(addedRequired);
  }

  /** @return kube-scheduler's {@code NodePorts} filter */
  public static Filter nodePorts() {
    return new NodePortsFilter();
  }

  /** @return kube-scheduler's {@code NodeResourcesFit} filter, checking every resource */
  public static Filter resourcesFit() {
    return new NodeResourcesFitFilter();
  }

  /**
   * @param ignoredResources extended resources not to check
   * @param ignoredResourceGroups groups (the part before {@code /}) of extended resources not to check
   * @return kube-scheduler's {@code NodeResourcesFit} filter with its {@code ignoredResources} and {@code
   *     ignoredResourceGroups} arguments
   * @throws IllegalArgumentException if a name is invalid, see {@link NodeResourcesFitFilter}
   */
  public static Filter resourcesFit(
      Collection<String> ignoredResources, Collection<String> ignoredResourceGroups) {
    return new NodeResourcesFitFilter(ignoredResources, ignoredResourceGroups);
  }

  /** @return kube-scheduler's {@code VolumeRestrictions} filter */
  public static Filter volumeRestrictions() {
    return new VolumeRestrictionsFilter();
  }

  /** @return kube-scheduler's {@code NodeVolumeLimits} filter: the CSI attach limits of CSINodes */
  public static Filter nodeVolumeLimits() {
    return new NodeVolumeLimitsFilter();
  }

  /**
   * @return kube-scheduler's {@code VolumeBinding} filter: a pod's bound claims' volumes must reach the node,
   *     and its unbound ones must find a volume or be provisionable there; it plans the bindings the controller
   *     makes before it binds the pod
   */
  public static Filter volumeBinding() {
    return new VolumeBindingFilter();
  }

  /** @return kube-scheduler's {@code VolumeZone} filter: the zone and region labels of the pod's volumes */
  public static Filter volumeZone() {
    return new VolumeZoneFilter();
  }

  /** @return kube-scheduler's {@code PodTopologySpread} filter with the system default constraints */
  public static Filter podTopologySpread() {
    return new PodTopologySpreadFilter();
  }

  /**
   * @param args the default constraints and how they are chosen ({@code PodTopologySpreadArgs})
   * @return kube-scheduler's {@code PodTopologySpread} filter with these arguments
   */
  public static Filter podTopologySpread(PodTopologySpreadArgs args) {
    return new PodTopologySpreadFilter(args);
  }

  /** @return kube-scheduler's {@code InterPodAffinity} filter */
  public static Filter interPodAffinity() {
    return new InterPodAffinityFilter();
  }

  /**
   * @return kube-scheduler's {@code DynamicResources} filter: a pod's ResourceClaims must exist and be usable, the
   *     allocated ones reach the node, and the others get devices there from the structured allocator; it plans
   *     the allocations the controller writes to the claims before it binds the pod
   */
  public static Filter dynamicResources() {
    return new DynamicResourcesFilter();
  }

  /**
   * @return kube-scheduler's {@code NodeDeclaredFeatures} filter: a node must declare in {@code
   *     status.declaredFeatures} every feature the pod's spec needs, as kube 1.37 infers them
   */
  public static Filter nodeDeclaredFeatures() {
    return new NodeDeclaredFeaturesFilter();
  }

  /**
   * @param labels the label keys to check, at least one
   * @param presence true if a node must carry all of them, false if it must carry none
   * @return the former {@code CheckNodeLabelPresence} predicate ({@code labelsPresence} argument)
   * @throws IllegalArgumentException if {@code labels} is empty or holds an empty key
   */
  public static Filter labelPresence(List<String> labels, boolean presence) {
    return new NodeLabelPresenceFilter(labels, presence);
  }
}
