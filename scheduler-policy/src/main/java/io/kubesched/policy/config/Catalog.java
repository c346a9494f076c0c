package io.kubesched.policy.config;

import io.kubesched.api.ConfigurationException;
import io.kubesched.policy.PreemptionArgs;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.framework.WeightedScorer;
import io.kubesched.policy.plugins.Filters;
import io.kubesched.policy.plugins.Scorers;
import io.kubesched.policy.plugins.args.ScoredResource;
import io.kubesched.policy.plugins.args.ShapePoint;
import io.kubesched.policy.plugins.serviceaffinity.ServiceAffinityFilter;
import io.kubesched.policy.plugins.serviceaffinity.ServiceAntiAffinityScorer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The names a Policy file may use, as kube-scheduler's former Policy API named its predicates and
 * priorities, and the arguments that make a custom-named one.
 *
 * <p>Predicates: {@code CheckNodeUnschedulable}, {@code GeneralPredicates} (resources, host name, host
 * ports, node selector), {@code MatchNodeSelector}, {@code NoDiskConflict}, {@code PodFitsHost}, {@code
 * PodFitsHostPorts}, {@code PodFitsResources}, {@code PodToleratesNodeTaints}, {@code MatchInterPodAffinity}
 * or {@code InterPodAffinity}, {@code EvenPodsSpread} or {@code PodTopologySpread} (system default
 * constraints), {@code CheckVolumeBinding} or {@code VolumeBinding}, {@code NoVolumeZoneConflict} or {@code
 * VolumeZone}, {@code MaxCSIVolumeCountPred} or {@code NodeVolumeLimits}, {@code NodeDeclaredFeatures} (no former
 * name: the predicate is newer than the Policy API); any name with argument {@code
 * labelsPresence: {labels: [...], presence: bool}} (the former {@code CheckNodeLabelPresence}) or {@code
 * serviceAffinity: {labels: [...]}} (the former {@code CheckServiceAffinity}, {@link ServiceAffinityFilter}).
 *
 * <p>Priorities: {@code BalancedResourceAllocation}, {@code ImageLocalityPriority}, {@code
 * LeastRequestedPriority}, {@code MostRequestedPriority}, {@code NodeAffinityPriority}, {@code
 * SelectorSpreadPriority}, {@code TaintTolerationPriority}, {@code InterPodAffinityPriority} or {@code
 * InterPodAffinity} (with the file's {@code hardPodAffinitySymmetricWeight}, 1 by default), {@code
 * EvenPodsSpreadPriority} or {@code PodTopologySpread}; any name with argument {@code labelPreference:
 * {label, presence}} (the former {@code NodeLabelPriority}) or {@code requestedToCapacityRatioArguments:
 * {shape: [{utilization, score}], resources: [{name, weight}]}} (the former {@code
 * RequestedToCapacityRatioPriority}) or {@code serviceAntiAffinity: {label}} (the former {@code
 * ServiceAntiAffinity}, {@link ServiceAntiAffinityScorer}).
 *
 * <p>Besides these, a Policy file may name the filters and scorers its reader's {@link PolicyFile.Loader} has
 * registered; those take no argument.
 *
 * <p>Preemption: {@code preemption: {enabled, minCandidateNodesPercentage, minCandidateNodesAbsolute}}, all
 * optional; without it (or with {@code enabled: true}) the policy preempts with kube-scheduler's defaults,
 * {@link PreemptionArgs#DEFAULT}, as kube-scheduler's default profile does.
 */
final class Catalog {

  private static final Map<String, Supplier<List<Filter>>> PREDICATES = new LinkedHashMap<>();
  private static final Map<String, Supplier<Scorer>> PRIORITIES = new LinkedHashMap<>();
  private static final Set<String> PREDICATE_ARGUMENTS = Set.of("labelsPresence", "serviceAffinity");
  private static final Set<String> PRIORITY_ARGUMENTS =
      Set.of("labelPreference", "requestedToCapacityRatioArguments", "serviceAntiAffinity");
  /** The inter-pod affinity priority's names: it takes the file's {@code hardPodAffinitySymmetricWeight}. */
  private static final Set<String> INTER_POD_AFFINITY_PRIORITIES = Set.of("InterPodAffinityPriority", "InterPodAffinity");
  /** Former names that only exist with an argument, and the argument they need. */
  private static final Map<String, String> NEED_ARGUMENT =
      Map.of(
          "CheckNodeLabelPresence", "labelsPresence",
          "CheckServiceAffinity", "serviceAffinity",
          "NodeLabelPriority", "labelPreference",
          "RequestedToCapacityRatioPriority", "requestedToCapacityRatioArguments");

  static {
    PREDICATES.put("CheckNodeUnschedulable", () -> List.of(Filters.nodeUnschedulable()));
    PREDICATES.put(
        "GeneralPredicates",
        () -> List.of(Filters.resourcesFit(), Filters.nodeName(), Filters.nodePorts(), Filters.nodeAffinity()));
    PREDICATES.put("MatchNodeSelector", () -> List.of(Filters.nodeAffinity()));
    PREDICATES.put("NoDiskConflict", () -> List.of(Filters.volumeRestrictions()));
    PREDICATES.put("PodFitsHost", () -> List.of(Filters.nodeName()));
    PREDICATES.put("PodFitsHostPorts", () -> List.of(Filters.nodePorts()));
    PREDICATES.put("PodFitsResources", () -> List.of(Filters.resourcesFit()));
    PREDICATES.put("PodToleratesNodeTaints", () -> List.of(Filters.taintToleration()));
    PREDICATES.put("MatchInterPodAffinity", () -> List.of(Filters.interPodAffinity()));
    PREDICATES.put("InterPodAffinity", () -> List.of(Filters.interPodAffinity()));
    PREDICATES.put("EvenPodsSpread", () -> List.of(Filters.podTopologySpread()));
    PREDICATES.put("PodTopologySpread", () -> List.of(Filters.podTopologySpread()));
    PREDICATES.put("CheckVolumeBinding", () -> List.of(Filters.volumeBinding()));
    PREDICATES.put("VolumeBinding", () -> List.of(Filters.volumeBinding()));
    PREDICATES.put("NoVolumeZoneConflict", () -> List.of(Filters.volumeZone()));
    PREDICATES.put("VolumeZone", () -> List.of(Filters.volumeZone()));
    PREDICATES.put("MaxCSIVolumeCountPred", () -> List.of(Filters.nodeVolumeLimits()));
    PREDICATES.put("NodeVolumeLimits", () -> List.of(Filters.nodeVolumeLimits()));
    PREDICATES.put("NodeDeclaredFeatures", () -> List.of(Filters.nodeDeclaredFeatures()));

    PRIORITIES.put("BalancedResourceAllocation", Scorers::balancedAllocation);
    PRIORITIES.put("ImageLocalityPriority", Scorers::imageLocality);
    PRIORITIES.put("LeastRequestedPriority", Scorers::leastAllocated);
    PRIORITIES.put("MostRequestedPriority", Scorers::mostAllocated);
    PRIORITIES.put("NodeAffinityPriority", Scorers::nodeAffinity);
    PRIORITIES.put("SelectorSpreadPriority", Scorers::selectorSpread);
    PRIORITIES.put("TaintTolerationPriority", Scorers::taintToleration);
    PRIORITIES.put("InterPodAffinityPriority", Scorers::interPodAffinity); // see priority(): the file's weight
    PRIORITIES.put("InterPodAffinity", Scorers::interPodAffinity);
    PRIORITIES.put("EvenPodsSpreadPriority", Scorers::podTopologySpread);
    PRIORITIES.put("PodTopologySpread", Scorers::podTopologySpread);
  }

  private Catalog() {}

  /** @return whether a Policy file's predicate may be called {@code name} without registering it */
  static boolean isBuiltInPredicate(String name) {
    var argument = NEED_ARGUMENT.get(name);
    return PREDICATES.containsKey(name) || argument != null && PREDICATE_ARGUMENTS.contains(argument);
  }

  /** @return whether a Policy file's priority may be called {@code name} without registering it */
  static boolean isBuiltInPriority(String name) {
    var argument = NEED_ARGUMENT.get(name);
    return PRIORITIES.containsKey(name) || argument != null && PRIORITY_ARGUMENTS.contains(argument);
  }

  static List<Filter> defaultFilters() {
    return Filters.defaults();
  }

  static List<WeightedScorer> defaultScorers() {
    return Scorers.defaults();
  }

  /** @return the filters one {@code predicates[i]} entry stands for */
  static List<Filter> predicate(PolicyFile.Reader reader, String path, JsonNode entry) {
    reader.object(entry, path, Set.of("name", "argument"));
    var name = reader.text(reader.required(entry, "name", path), path + ".name");
    var argument = entry.get("argument");
    var registered = reader.registeredFilters().get(name);
    if (argument == null || argument.isNull()) {
      var filters = PREDICATES.get(name);
      if (filters != null) {
        return filters.get();
      }
      if (registered != null) {
        return List.of(registered);
      }
      throw unknownOrMissing(
          reader, path, name, "predicate", PREDICATES.keySet(), reader.registeredFilters().keySet(),
          PREDICATE_ARGUMENTS);
    }
    var argPath = path + ".argument";
    if (registered != null) {
      throw reader.error(argPath, "is given to the registered predicate " + name + ", which takes none");
    }
    var kind = single(reader, argument, argPath, PREDICATE_ARGUMENTS);
    var kindPath = argPath + "." + kind;
    if (kind.equals("serviceAffinity")) {
      var spec = reader.object(argument.get(kind), kindPath, Set.of("labels"));
      var labels = reader.texts(reader.required(spec, "labels", kindPath), kindPath + ".labels");
      if (labels.isEmpty()) {
        throw reader.error(kindPath + ".labels", "must name at least one label");
      }
      return List.of(Renamed.filter(name, new ServiceAffinityFilter(labels)));
    }
    var spec = reader.object(argument.get(kind), kindPath, Set.of("labels", "presence"));
    var labels = reader.texts(reader.required(spec, "labels", kindPath), kindPath + ".labels");
    if (labels.isEmpty()) {
      throw reader.error(kindPath + ".labels", "must name at least one label");
    }
    boolean presence = reader.bool(reader.required(spec, "presence", kindPath), kindPath + ".presence");
    return List.of(Renamed.filter(name, Filters.labelPresence(labels, presence)));
  }

  /** @return the weighted scorer one {@code priorities[i]} entry stands for */
  static WeightedScorer priority(PolicyFile.Reader reader, String path, JsonNode entry) {
    reader.object(entry, path, Set.of("name", "weight", "argument"));
    var name = reader.text(reader.required(entry, "name", path), path + ".name");
    int weight = reader.integer(reader.required(entry, "weight", path), path + ".weight");
    if (weight < 1) {
      throw reader.error(path + ".weight", "must be a positive integer, was " + weight);
    }
    var argument = entry.get("argument");
    var registered = reader.registeredScorers().get(name);
    if (argument == null || argument.isNull()) {
      if (INTER_POD_AFFINITY_PRIORITIES.contains(name)) {
        return new WeightedScorer(Scorers.interPodAffinity(reader.hardPodAffinityWeight(), false), weight);
      }
      var scorer = PRIORITIES.get(name);
      if (scorer != null) {
        return new WeightedScorer(scorer.get(), weight);
      }
      if (registered != null) {
        return new WeightedScorer(registered, weight);
      }
      throw unknownOrMissing(
          reader, path, name, "priority", PRIORITIES.keySet(), reader.registeredScorers().keySet(),
          PRIORITY_ARGUMENTS);
    }
    var argPath = path + ".argument";
    if (registered != null) {
      throw reader.error(argPath, "is given to the registered priority " + name + ", which takes none");
    }
    var kind = single(reader, argument, argPath, PRIORITY_ARGUMENTS);
    var kindPath = argPath + "." + kind;
    if (kind.equals("labelPreference")) {
      var spec = reader.object(argument.get(kind), kindPath, Set.of("label", "presence"));
      var label = reader.text(reader.required(spec, "label", kindPath), kindPath + ".label");
      boolean presence = reader.bool(reader.required(spec, "presence", kindPath), kindPath + ".presence");
      return new WeightedScorer(Renamed.scorer(name, Scorers.nodeLabel(label, presence)), weight);
    }
    if (kind.equals("serviceAntiAffinity")) {
      var spec = reader.object(argument.get(kind), kindPath, Set.of("label"));
      var label = reader.text(reader.required(spec, "label", kindPath), kindPath + ".label");
      return new WeightedScorer(Renamed.scorer(name, new ServiceAntiAffinityScorer(label)), weight);
    }
    var spec = reader.object(argument.get(kind), kindPath, Set.of("shape", "resources"));
    var shape = new ArrayList<ShapePoint>();
    for (var point : reader.list(reader.required(spec, "shape", kindPath), kindPath + ".shape")) {
      reader.object(point.node(), point.path(), Set.of("utilization", "score"));
      int utilization =
          reader.integer(reader.required(point.node(), "utilization", point.path()), point.path() + ".utilization");
      int score = reader.integer(reader.required(point.node(), "score", point.path()), point.path() + ".score");
      try {
        shape.add(new ShapePoint(utilization, score));
      } catch (IllegalArgumentException invalid) {
        throw reader.error(point.path(), "is invalid: " + invalid.getMessage());
      }
    }
    // Without resources the former priority weighed CPU and memory alike.
    var resources = new ArrayList<ScoredResource>();
    var resourceList = spec.get("resources");
    if (resourceList != null && !resourceList.isNull()) {
      for (var resource : reader.list(resourceList, kindPath + ".resources")) {
        reader.object(resource.node(), resource.path(), Set.of("name", "weight"));
        var resourceName = reader.text(reader.required(resource.node(), "name", resource.path()), resource.path() + ".name");
        var resourceWeight = resource.node().get("weight");
        int weightOfResource = resourceWeight == null ? 1 : reader.integer(resourceWeight, resource.path() + ".weight");
        try {
          resources.add(new ScoredResource(resourceName, weightOfResource));
        } catch (IllegalArgumentException invalid) {
          throw reader.error(resource.path(), "is invalid: " + invalid.getMessage());
        }
      }
    }
    if (resources.isEmpty()) {
      resources.addAll(ScoredResource.defaults());
    }
    try {
      return new WeightedScorer(Renamed.scorer(name, Scorers.requestedToCapacityRatio(shape, resources)), weight);
    } catch (IllegalArgumentException invalid) {
      throw reader.error(kindPath, "is invalid: " + invalid.getMessage());
    }
  }

  /**
   * @param node the file's {@code preemption} object; null if the file has none
   * @return the preemption's arguments; empty if the file turns preemption off
   */
  static Optional<PreemptionArgs> preemption(PolicyFile.Reader reader, @Nullable JsonNode node) {
    if (node == null || node.isNull()) {
      return Optional.of(PreemptionArgs.DEFAULT);
    }
    var path = "preemption";
    reader.object(node, path, Set.of("enabled", "minCandidateNodesPercentage", "minCandidateNodesAbsolute"));
    var enabled = node.get("enabled");
    var percentage = node.get("minCandidateNodesPercentage");
    var absolute = node.get("minCandidateNodesAbsolute");
    int minPercentage = percentage == null
        ? PreemptionArgs.DEFAULT.minCandidateNodesPercentage()
        : reader.integer(percentage, path + ".minCandidateNodesPercentage");
    int minAbsolute = absolute == null
        ? PreemptionArgs.DEFAULT.minCandidateNodesAbsolute()
        : reader.integer(absolute, path + ".minCandidateNodesAbsolute");
    PreemptionArgs args;
    try {
      args = new PreemptionArgs(minPercentage, minAbsolute);
    } catch (ConfigurationException invalid) {
      throw reader.error(path, "is invalid: " + invalid.getMessage());
    }
    if (enabled != null && !reader.bool(enabled, path + ".enabled")) {
      return Optional.empty();
    }
    return Optional.of(args);
  }

  private static String single(PolicyFile.Reader reader, JsonNode argument, String path, Set<String> kinds) {
    reader.object(argument, path, kinds);
    var present = argument.propertyNames();
    if (present.size() != 1) {
      throw reader.error(path, "must hold exactly one of " + new TreeSet<>(kinds) + ", had " + present);
    }
    return present.iterator().next();
  }

  private static RuntimeException unknownOrMissing(
      PolicyFile.Reader reader,
      String path,
      String name,
      String what,
      Set<String> builtIn,
      Set<String> registered,
      Set<String> arguments) {
    var needed = NEED_ARGUMENT.get(name);
    if (needed != null) {
      return reader.error(path, what + " " + name + " needs an argument " + needed);
    }
    return reader.error(
        path + ".name",
        "\"" + name + "\" is not a known " + what + "; valid: " + new TreeSet<>(builtIn) + ", registered: "
            + new TreeSet<>(registered) + ", or any name with an argument " + new TreeSet<>(arguments));
  }
}
