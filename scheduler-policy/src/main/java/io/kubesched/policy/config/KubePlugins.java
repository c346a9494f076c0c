package io.kubesched.policy.config;

import static io.kubesched.policy.config.ExtensionPoint.BIND;
import static io.kubesched.policy.config.ExtensionPoint.FILTER;
import static io.kubesched.policy.config.ExtensionPoint.PERMIT;
import static io.kubesched.policy.config.ExtensionPoint.PLACEMENT_GENERATE;
import static io.kubesched.policy.config.ExtensionPoint.PLACEMENT_SCORE;
import static io.kubesched.policy.config.ExtensionPoint.POD_GROUP_POST_FILTER;
import static io.kubesched.policy.config.ExtensionPoint.POST_FILTER;
import static io.kubesched.policy.config.ExtensionPoint.PRE_BIND;
import static io.kubesched.policy.config.ExtensionPoint.PRE_ENQUEUE;
import static io.kubesched.policy.config.ExtensionPoint.PRE_FILTER;
import static io.kubesched.policy.config.ExtensionPoint.PRE_SCORE;
import static io.kubesched.policy.config.ExtensionPoint.QUEUE_SORT;
import static io.kubesched.policy.config.ExtensionPoint.RESERVE;
import static io.kubesched.policy.config.ExtensionPoint.SCORE;

import io.kubesched.policy.config.PluginSets.PluginRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The plugins of kube-scheduler 1.37.2 (its in-tree registry, {@code plugins/registry.go}), the extension points
 * each one implements, which of them take arguments, kube's default profile, and what this library makes of each
 * plugin ({@link Role}).
 */
final class KubePlugins {

  /** What this library makes of a kube-scheduler plugin. */
  enum Role {
    /** A filter and/or scorer of the library's {@link io.kubesched.policy.Policy}. */
    POLICY,
    /**
     * Part of the scheduling loop rather than of the policy: queue order ({@code PrioritySort}), binding ({@code
     * DefaultBinder}), scheduling gates ({@code SchedulingGates}), pod groups ({@code GangScheduling}); and
     * {@code DefaultPreemption}, which becomes {@link io.kubesched.policy.Policy#preemption()}.
     */
    LOOP,
    /**
     * In kube-scheduler but not in this library: accepted where kube's defaults put it (the controller refuses
     * the pods that would need it), an error where a file enables or configures it.
     */
    UNSUPPORTED
  }

  /**
   * @param name kube's name
   * @param role what the library makes of it
   * @param points the extension points it implements
   * @param takesArgs whether kube has an {@code <name>Args} type for it
   */
  record Plugin(String name, Role role, Set<ExtensionPoint> points, boolean takesArgs) {
    Plugin {
      points = Collections.unmodifiableSet(EnumSet.copyOf(points));
    }
  }

  /** Names kube-scheduler's v1 configuration rejects as removed ({@code invalidPluginsByVersion}). */
  static final Set<String> REMOVED = Set.of("AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits");

  /** The API version whose messages name the removal. */
  static final String API_VERSION = "kubescheduler.config.k8s.io/v1";

  private static final Map<String, Plugin> PLUGINS = new TreeMap<>();

  static {
    loop("PrioritySort", false, QUEUE_SORT);
    loop("DefaultBinder", false, BIND);
    loop("SchedulingGates", false, PRE_ENQUEUE);
    loop("GangScheduling", false, PRE_ENQUEUE, PERMIT);
    loop("DefaultPreemption", true, PRE_ENQUEUE, POST_FILTER, POD_GROUP_POST_FILTER);
    policy("NodeName", false, PRE_FILTER, FILTER);
    policy("NodeUnschedulable", false, PRE_FILTER, FILTER);
    policy("TaintToleration", false, PRE_FILTER, FILTER, PRE_SCORE, SCORE);
    policy("NodeAffinity", true, PRE_FILTER, FILTER, PRE_SCORE, SCORE);
    policy("NodePorts", false, PRE_FILTER, FILTER);
    policy("NodeResourcesFit", true, PRE_FILTER, FILTER, PRE_SCORE, SCORE, PLACEMENT_SCORE);
    policy("VolumeRestrictions", false, PRE_FILTER, FILTER);
    policy("NodeVolumeLimits", false, PRE_FILTER, FILTER);
    policy("VolumeBinding", true, PRE_FILTER, FILTER, RESERVE, PRE_BIND, PRE_SCORE, SCORE);
    policy("VolumeZone", false, PRE_FILTER, FILTER);
    policy("PodTopologySpread", true, PRE_FILTER, FILTER, PRE_SCORE, SCORE);
    policy("InterPodAffinity", true, PRE_FILTER, FILTER, PRE_SCORE, SCORE);
    policy("NodeResourcesBalancedAllocation", true, PRE_SCORE, SCORE);
    policy("ImageLocality", false, SCORE);
    policy("NodeDeclaredFeatures", false, PRE_FILTER, FILTER);
    policy(
        "DynamicResources", true, PRE_ENQUEUE, PRE_FILTER, FILTER, POST_FILTER, POD_GROUP_POST_FILTER, SCORE,
        RESERVE, PRE_BIND);
    unsupported("DeferredPodScheduling", false, PRE_FILTER, FILTER, PERMIT);
    unsupported("TopologyPlacementGenerator", false, PLACEMENT_GENERATE);
    unsupported("PodGroupPodsCount", false, PLACEMENT_SCORE);
  }

  private KubePlugins() {}

  private static void policy(String name, boolean takesArgs, ExtensionPoint... points) {
    add(name, Role.POLICY, takesArgs, points);
  }

  private static void loop(String name, boolean takesArgs, ExtensionPoint... points) {
    add(name, Role.LOOP, takesArgs, points);
  }

  private static void unsupported(String name, boolean takesArgs, ExtensionPoint... points) {
    add(name, Role.UNSUPPORTED, takesArgs, points);
  }

  private static void add(String name, Role role, boolean takesArgs, ExtensionPoint... points) {
    PLUGINS.put(name, new Plugin(name, role, Set.of(points), takesArgs));
  }

  /** @return kube-scheduler 1.37's plugin called {@code name}, if it has one */
  static Optional<Plugin> get(String name) {
    return Optional.ofNullable(PLUGINS.get(name));
  }

  /** @return the extension points kube's plugin {@code name} implements; none for an unknown name */
  static Set<ExtensionPoint> pointsOf(String name) {
    var plugin = PLUGINS.get(name);
    return plugin == null ? Set.of() : plugin.points();
  }

  /** @return every plugin name kube-scheduler 1.37 knows, sorted */
  static Set<String> names() {
    return Collections.unmodifiableSet(PLUGINS.keySet());
  }

  /** @return the names of the plugins with {@code role}, sorted */
  static List<String> names(Role role) {
    return PLUGINS.values().stream().filter(p -> p.role() == role).map(Plugin::name).toList();
  }

  /**
   * kube-scheduler 1.37's default {@code multiPoint} set ({@code getDefaultPlugins}) with its default feature
   * gates: {@code DynamicResourceAllocation} and {@code NodeDeclaredFeatures} on (GA), {@code GenericWorkload},
   * {@code TopologyAwareWorkloadScheduling} and {@code InPlacePodVerticalScalingSchedulerPreemption} off, so
   * {@code DynamicResources} (weight 2, before {@code DefaultPreemption}) and {@code NodeDeclaredFeatures} are in
   * and {@code GangScheduling}, {@code DeferredPodScheduling}, {@code TopologyPlacementGenerator} and {@code
   * PodGroupPodsCount} are not.
   */
  static List<PluginRef> defaultMultiPoint() {
    var plugins = new ArrayList<PluginRef>();
    for (var entry : List.of(
        "SchedulingGates", "PrioritySort", "NodeName", "NodeUnschedulable", "TaintToleration:3", "NodeAffinity:2",
        "NodePorts", "NodeResourcesFit:1", "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone",
        "PodTopologySpread:2", "InterPodAffinity:2", "DynamicResources:2", "DefaultPreemption",
        "NodeResourcesBalancedAllocation:1", "ImageLocality:1", "DefaultBinder", "NodeDeclaredFeatures")) {
      int colon = entry.indexOf(':');
      @Nullable Integer weight = colon < 0 ? null : Integer.valueOf(entry.substring(colon + 1));
      plugins.add(new PluginRef(colon < 0 ? entry : entry.substring(0, colon), weight, null));
    }
    return List.copyOf(plugins);
  }
}
