package io.kubesched.policy.config;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.LabelSyntax;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorRequirement.Operator;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PreferredSchedulingTerm;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.api.TopologySpreadConstraint.InclusionPolicy;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import io.kubesched.policy.PreemptionArgs;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.Filters;
import io.kubesched.policy.plugins.Scorers;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs;
import io.kubesched.policy.plugins.args.ScoredResource;
import io.kubesched.policy.plugins.args.ShapePoint;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityScorer;
import io.kubesched.policy.plugins.noderesources.RequestedToCapacityRatioScorer;
import io.kubesched.policy.plugins.volumebinding.VolumeBindingScorer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The {@code pluginConfig[].args} of one profile, read, defaulted and validated as kube-scheduler 1.37 does
 * ({@code SetDefaults_*Args}, {@code Validate*Args}), and the filters and scorers they make. Arguments the file
 * leaves out keep kube's defaults. Used by one thread while a profile is read.
 *
 * <p>Supported: {@code DefaultPreemptionArgs}, {@code InterPodAffinityArgs}, {@code NodeAffinityArgs}, {@code
 * NodeResourcesBalancedAllocationArgs}, {@code NodeResourcesFitArgs} (its three scoring strategies), {@code
 * PodTopologySpreadArgs} and {@code VolumeBindingArgs}'s {@code shape}. {@code VolumeBindingArgs.bindTimeoutSeconds}
 * other than kube's 600 is refused: the controller's volume binding timeout is one for all profiles, set on the
 * facade's options.
 */
final class PluginArgs {

  private static final String QUALIFIED_NAME =
      "must be a qualified name (an optional DNS subdomain prefix and '/', then a name of at most 63 alphanumeric"
          + " characters, '-', '_' or '.', starting and ending with an alphanumeric character)";
  private static final List<String> STRATEGIES = List.of("LeastAllocated", "MostAllocated", "RequestedToCapacityRatio");
  private static final List<String> DEFAULTING_TYPES = List.of("List", "System");
  private static final List<String> WHEN_UNSATISFIABLE = List.of("DoNotSchedule", "ScheduleAnyway");
  private static final List<String> INCLUSION_POLICIES = List.of("Honor", "Ignore");
  private static final List<String> OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt");
  private static final List<String> FIELD_OPERATORS = List.of("In", "NotIn");
  private static final long DEFAULT_BIND_TIMEOUT_SECONDS = 600;

  /** kube's default {@code DynamicResourcesArgs.filterTimeout}, in seconds. */
  static final long DRA_FILTER_TIMEOUT_SECONDS = 10;

  /** kube's default {@code DynamicResourcesArgs.bindingTimeout}, in seconds. */
  static final long DRA_BINDING_TIMEOUT_SECONDS = 600;

  private final ConfigReader reader;

  private List<String> ignoredResources = List.of();
  private List<String> ignoredResourceGroups = List.of();
  private Scorer fitScorer = Scorers.leastAllocated();
  private List<NodeSelectorTerm> addedRequired = List.of();
  private List<PreferredSchedulingTerm> addedPreferred = List.of();
  private PodTopologySpreadArgs spread = PodTopologySpreadArgs.SYSTEM;
  private int hardPodAffinityWeight = InterPodAffinityScorer.DEFAULT_HARD_POD_AFFINITY_WEIGHT;
  private boolean ignorePreferredTermsOfExistingPods;
  private List<ScoredResource> balancedResources = ScoredResource.defaults();
  private List<ShapePoint> volumeShape = VolumeBindingScorer.DEFAULT_SHAPE;
  private PreemptionArgs preemption = PreemptionArgs.DEFAULT;

  PluginArgs(ConfigReader reader) {
    this.reader = reader;
  }

  /** @return the arguments of {@code DefaultPreemption} */
  PreemptionArgs preemption() {
    return preemption;
  }

  /**
   * @param plugin a plugin of {@link KubePlugins.Role#POLICY} that implements {@code filter}
   * @return its filter, with its arguments
   */
  Filter filter(String plugin) {
    return switch (plugin) {
      case "NodeName" -> Filters.nodeName();
      case "NodeUnschedulable" -> Filters.nodeUnschedulable();
      case "TaintToleration" -> Filters.taintToleration();
      case "NodeAffinity" -> addedRequired.isEmpty() ? Filters.nodeAffinity() : Filters.nodeAffinity(addedRequired);
      case "NodePorts" -> Filters.nodePorts();
      case "NodeResourcesFit" -> ignoredResources.isEmpty() && ignoredResourceGroups.isEmpty()
          ? Filters.resourcesFit()
          : Filters.resourcesFit(ignoredResources, ignoredResourceGroups);
      case "VolumeRestrictions" -> Filters.volumeRestrictions();
      case "NodeVolumeLimits" -> Filters.nodeVolumeLimits();
      case "VolumeBinding" -> Filters.volumeBinding();
      case "VolumeZone" -> Filters.volumeZone();
      case "PodTopologySpread" -> Filters.podTopologySpread(spread);
      case "InterPodAffinity" -> Filters.interPodAffinity();
      case "DynamicResources" -> Filters.dynamicResources();
      case "NodeDeclaredFeatures" -> Filters.nodeDeclaredFeatures();
      default -> throw new IllegalStateException("no filter for plugin " + plugin);
    };
  }

  /**
   * @param plugin a plugin of {@link KubePlugins.Role#POLICY} that implements {@code score}
   * @return its scorer, with its arguments
   */
  Scorer scorer(String plugin) {
    return switch (plugin) {
      case "TaintToleration" -> Scorers.taintToleration();
      case "NodeAffinity" -> addedPreferred.isEmpty() ? Scorers.nodeAffinity() : Scorers.nodeAffinity(addedPreferred);
      case "NodeResourcesFit" -> fitScorer;
      case "VolumeBinding" -> new VolumeBindingScorer(volumeShape);
      case "PodTopologySpread" -> Scorers.podTopologySpread(spread);
      case "InterPodAffinity" -> Scorers.interPodAffinity(hardPodAffinityWeight, ignorePreferredTermsOfExistingPods);
      case "NodeResourcesBalancedAllocation" -> Scorers.balancedAllocation(balancedResources);
      case "ImageLocality" -> Scorers.imageLocality();
      case "DynamicResources" -> Scorers.dynamicResources();
      default -> throw new IllegalStateException("no scorer for plugin " + plugin);
    };
  }

  /**
   * Reads {@code args} of the plugin {@code plugin}, which takes arguments and is supported.
   *
   * @param path the YAML path of {@code args}
   * @throws ConfigurationException if they are not what kube-scheduler accepts, or not supported here
   */
  void read(String plugin, JsonNode args, String path) {
    switch (plugin) {
      case "DefaultPreemption" -> defaultPreemption(args, path);
      case "InterPodAffinity" -> interPodAffinity(args, path);
      case "NodeAffinity" -> nodeAffinity(args, path);
      case "NodeResourcesBalancedAllocation" -> balancedAllocation(args, path);
      case "NodeResourcesFit" -> nodeResourcesFit(args, path);
      case "PodTopologySpread" -> podTopologySpread(args, path);
      case "VolumeBinding" -> volumeBinding(args, path);
      case "DynamicResources" -> dynamicResources(args, path);
      default -> throw new IllegalStateException("no arguments for plugin " + plugin);
    }
  }

  /** Checks {@code args} is an object of {@code fields} plus its optional {@code apiVersion} and {@code kind}. */
  private JsonNode args(String plugin, JsonNode args, String path, String... fields) {
    var allowed = new HashSet<>(List.of(fields));
    allowed.add("apiVersion");
    allowed.add("kind");
    reader.object(args, path, allowed);
    var kind = ConfigReader.field(args, "kind");
    if (kind != null && !reader.string(kind, path + ".kind").equals(plugin + "Args")) {
      throw reader.error(path + ".kind", "must be " + plugin + "Args for plugin " + plugin + ", was "
          + TreeReader.describe(kind));
    }
    var apiVersion = ConfigReader.field(args, "apiVersion");
    if (apiVersion != null && !reader.string(apiVersion, path + ".apiVersion").equals(KubePlugins.API_VERSION)) {
      throw reader.error(path + ".apiVersion", "must be " + KubePlugins.API_VERSION + ", was "
          + TreeReader.describe(apiVersion));
    }
    return args;
  }

  private void defaultPreemption(JsonNode node, String path) {
    args("DefaultPreemption", node, path, "minCandidateNodesPercentage", "minCandidateNodesAbsolute");
    var percentage = ConfigReader.field(node, "minCandidateNodesPercentage");
    var absolute = ConfigReader.field(node, "minCandidateNodesAbsolute");
    try {
      preemption = new PreemptionArgs(
          percentage == null
              ? PreemptionArgs.DEFAULT.minCandidateNodesPercentage()
              : reader.int32(percentage, path + ".minCandidateNodesPercentage"),
          absolute == null
              ? PreemptionArgs.DEFAULT.minCandidateNodesAbsolute()
              : reader.int32(absolute, path + ".minCandidateNodesAbsolute"));
    } catch (ConfigurationException invalid) {
      throw reader.nested(path, invalid.getMessage());
    }
  }

  private void interPodAffinity(JsonNode node, String path) {
    args("InterPodAffinity", node, path, "hardPodAffinityWeight", "ignorePreferredTermsOfExistingPods");
    var weight = ConfigReader.field(node, "hardPodAffinityWeight");
    if (weight != null) {
      hardPodAffinityWeight = reader.int32(weight, path + ".hardPodAffinityWeight");
      if (hardPodAffinityWeight < 0 || hardPodAffinityWeight > InterPodAffinityScorer.MAX_HARD_POD_AFFINITY_WEIGHT) {
        throw reader.invalid(path + ".hardPodAffinityWeight", hardPodAffinityWeight, "not in valid range [0, 100]");
      }
    }
    var ignore = ConfigReader.field(node, "ignorePreferredTermsOfExistingPods");
    if (ignore != null) {
      ignorePreferredTermsOfExistingPods = reader.bool(ignore, path + ".ignorePreferredTermsOfExistingPods");
    }
  }

  private void nodeAffinity(JsonNode node, String path) {
    args("NodeAffinity", node, path, "addedAffinity");
    var affinity = ConfigReader.field(node, "addedAffinity");
    if (affinity == null) {
      return;
    }
    var affinityPath = path + ".addedAffinity";
    reader.object(affinity, affinityPath,
        Set.of("requiredDuringSchedulingIgnoredDuringExecution", "preferredDuringSchedulingIgnoredDuringExecution"));
    var required = ConfigReader.field(affinity, "requiredDuringSchedulingIgnoredDuringExecution");
    if (required != null) {
      var requiredPath = affinityPath + ".requiredDuringSchedulingIgnoredDuringExecution";
      reader.object(required, requiredPath, Set.of("nodeSelectorTerms"));
      var terms = new ArrayList<NodeSelectorTerm>();
      var listed = ConfigReader.field(required, "nodeSelectorTerms");
      if (listed != null) {
        for (var term : reader.list(listed, requiredPath + ".nodeSelectorTerms")) {
          terms.add(term(term.node(), term.path()));
        }
      }
      // A selector without terms selects no node, as kube's; an empty term stands for it.
      addedRequired = terms.isEmpty() ? List.of(new NodeSelectorTerm(List.of(), List.of())) : List.copyOf(terms);
    }
    var preferred = ConfigReader.field(affinity, "preferredDuringSchedulingIgnoredDuringExecution");
    if (preferred != null) {
      var terms = new ArrayList<PreferredSchedulingTerm>();
      for (var entry : reader.list(preferred, affinityPath + ".preferredDuringSchedulingIgnoredDuringExecution")) {
        reader.object(entry.node(), entry.path(), Set.of("weight", "preference"));
        var weightNode = ConfigReader.field(entry.node(), "weight");
        int weight = weightNode == null ? 0 : reader.int32(weightNode, entry.path() + ".weight");
        var preference = reader.required(entry.node(), "preference", entry.path());
        var term = term(preference, entry.path() + ".preference");
        // kube skips a term of weight 0 and an empty term.
        if (weight == 0 || term.matchExpressions().isEmpty() && term.matchFields().isEmpty()) {
          continue;
        }
        if (weight < 1 || weight > 100) {
          throw reader.error(entry.path() + ".weight", "is " + weight + ": weights other than 1 to 100 (those the"
              + " API server accepts in a pod) are not supported");
        }
        terms.add(new PreferredSchedulingTerm(weight, term));
      }
      addedPreferred = List.copyOf(terms);
    }
  }

  /** kube's {@code newNodeSelectorTerm} with {@code labels.NewRequirement}'s and the field selector's checks. */
  private NodeSelectorTerm term(JsonNode node, String path) {
    reader.object(node, path, Set.of("matchExpressions", "matchFields"));
    var expressions = new ArrayList<NodeSelectorRequirement>();
    var fields = new ArrayList<NodeSelectorRequirement>();
    var listedExpressions = ConfigReader.field(node, "matchExpressions");
    if (listedExpressions != null) {
      for (var entry : reader.list(listedExpressions, path + ".matchExpressions")) {
        expressions.add(requirement(entry.node(), entry.path(), false));
      }
    }
    var listedFields = ConfigReader.field(node, "matchFields");
    if (listedFields != null) {
      for (var entry : reader.list(listedFields, path + ".matchFields")) {
        fields.add(requirement(entry.node(), entry.path(), true));
      }
    }
    return new NodeSelectorTerm(expressions, fields);
  }

  private NodeSelectorRequirement requirement(JsonNode node, String path, boolean field) {
    reader.object(node, path, Set.of("key", "operator", "values"));
    var keyNode = ConfigReader.field(node, "key");
    var key = keyNode == null ? "" : reader.string(keyNode, path + ".key");
    var operatorNode = ConfigReader.field(node, "operator");
    var operatorName = operatorNode == null ? "" : reader.string(operatorNode, path + ".operator");
    var valuesNode = ConfigReader.field(node, "values");
    var values = valuesNode == null ? List.<String>of() : reader.strings(valuesNode, path + ".values");
    var supported = field ? FIELD_OPERATORS : OPERATORS;
    if (!supported.contains(operatorName)) {
      throw reader.unsupported(path + ".operator", operatorName, supported);
    }
    var operator = switch (operatorName) {
      case "In" -> Operator.IN;
      case "NotIn" -> Operator.NOT_IN;
      case "Exists" -> Operator.EXISTS;
      case "DoesNotExist" -> Operator.DOES_NOT_EXIST;
      case "Gt" -> Operator.GT;
      default -> Operator.LT;
    };
    if (field) {
      if (values.size() != 1) {
        throw reader.invalid(path + ".values", values, "must have one element");
      }
      return new NodeSelectorRequirement(key, operator, values);
    }
    if (!LabelSyntax.isQualifiedName(key)) {
      throw reader.invalid(path + ".key", "\"" + key + "\"", QUALIFIED_NAME);
    }
    switch (operator) {
      case IN, NOT_IN -> {
        if (values.isEmpty()) {
          throw reader.invalid(path + ".values", values, "for 'in', 'notin' operators, values set can't be empty");
        }
      }
      case EXISTS, DOES_NOT_EXIST -> {
        if (!values.isEmpty()) {
          throw reader.invalid(path + ".values", values, "values set must be empty for exists and does not exist");
        }
      }
      default -> {
        if (values.size() != 1) {
          throw reader.invalid(path + ".values", values, "for 'Gt', 'Lt' operators, exactly one value is required");
        }
        try {
          Long.parseLong(values.get(0));
        } catch (NumberFormatException notInteger) {
          throw reader.invalid(path + ".values[0]", "\"" + values.get(0) + "\"",
              "for 'Gt', 'Lt' operators, the value must be an integer");
        }
      }
    }
    for (int i = 0; i < values.size(); i++) {
      if (!LabelSyntax.isLabelValue(values.get(i))) {
        throw reader.invalid(path + ".values[" + i + "]", "\"" + values.get(i) + "\"",
            "must be a valid label value (at most 63 alphanumeric characters, '-', '_' or '.', starting and ending"
                + " with an alphanumeric character, or empty)");
      }
    }
    return new NodeSelectorRequirement(key, operator, values);
  }

  private void balancedAllocation(JsonNode node, String path) {
    args("NodeResourcesBalancedAllocation", node, path, "resources");
    var listed = ConfigReader.field(node, "resources");
    var resources = listed == null ? List.<ScoredResource>of() : resources(listed, path + ".resources", true);
    balancedResources = resources.isEmpty() ? ScoredResource.defaults() : resources;
  }

  /**
   * kube's {@code ResourceSpec} list, a weight of 0 (or none) defaulted to 1. For BalancedAllocation ({@code
   * balanced}): names must differ and weights be 1; otherwise weights must be in (0, 100].
   */
  private List<ScoredResource> resources(JsonNode node, String path, boolean balanced) {
    var resources = new ArrayList<ScoredResource>();
    var seen = new HashSet<String>();
    for (var entry : reader.list(node, path)) {
      reader.object(entry.node(), entry.path(), Set.of("name", "weight"));
      var name = reader.string(reader.required(entry.node(), "name", entry.path()), entry.path() + ".name");
      var weightNode = ConfigReader.field(entry.node(), "weight");
      long weight = weightNode == null ? 0 : reader.int64(weightNode, entry.path() + ".weight");
      if (weight == 0) {
        weight = 1;
      }
      if (balanced) {
        if (!seen.add(name)) {
          throw reader.fieldError(entry.path() + ".name", "Duplicate value: \"" + name + "\"");
        }
        if (weight != 1) {
          throw reader.invalid(entry.path() + ".weight", weight, "must be 1");
        }
      } else if (weight < 0 || weight > ScoredResource.MAX_WEIGHT) {
        throw reader.invalid(entry.path() + ".weight", weight,
            "resource weight of " + name + " not in valid range (0, 100]");
      }
      if (name.isBlank()) {
        throw reader.error(entry.path() + ".name", "must name a resource, such as cpu, memory or nvidia.com/gpu");
      }
      resources.add(new ScoredResource(name, (int) weight));
    }
    return resources;
  }

  private void nodeResourcesFit(JsonNode node, String path) {
    args("NodeResourcesFit", node, path, "ignoredResources", "ignoredResourceGroups", "scoringStrategy");
    var ignored = ConfigReader.field(node, "ignoredResources");
    if (ignored != null) {
      ignoredResources = reader.strings(ignored, path + ".ignoredResources");
      for (int i = 0; i < ignoredResources.size(); i++) {
        if (!LabelSyntax.isQualifiedName(ignoredResources.get(i))) {
          throw reader.invalid(path + ".ignoredResources[" + i + "]", "\"" + ignoredResources.get(i) + "\"",
              QUALIFIED_NAME);
        }
      }
    }
    var groups = ConfigReader.field(node, "ignoredResourceGroups");
    if (groups != null) {
      ignoredResourceGroups = reader.strings(groups, path + ".ignoredResourceGroups");
      for (int i = 0; i < ignoredResourceGroups.size(); i++) {
        var group = ignoredResourceGroups.get(i);
        if (group.contains("/")) {
          throw reader.invalid(path + ".ignoredResourceGroups[" + i + "]", "\"" + group + "\"",
              "resource group name can't contain '/'");
        }
        if (!LabelSyntax.isQualifiedName(group)) {
          throw reader.invalid(path + ".ignoredResourceGroups[" + i + "]", "\"" + group + "\"", QUALIFIED_NAME);
        }
      }
    }
    var strategy = ConfigReader.field(node, "scoringStrategy");
    if (strategy != null) {
      fitScorer = scoringStrategy(strategy, path + ".scoringStrategy");
    }
  }

  private Scorer scoringStrategy(JsonNode node, String path) {
    reader.object(node, path, Set.of("type", "resources", "requestedToCapacityRatio"));
    var typeNode = ConfigReader.field(node, "type");
    var type = typeNode == null ? "" : reader.string(typeNode, path + ".type");
    if (!STRATEGIES.contains(type)) {
      throw reader.unsupported(path + ".type", type, STRATEGIES);
    }
    var listed = ConfigReader.field(node, "resources");
    var resources = listed == null ? List.<ScoredResource>of() : resources(listed, path + ".resources", false);
    if (resources.isEmpty()) {
      resources = ScoredResource.defaults();
    }
    var ratio = ConfigReader.field(node, "requestedToCapacityRatio");
    var ratioPath = path + ".requestedToCapacityRatio";
    if (!type.equals("RequestedToCapacityRatio")) {
      if (ratio != null) {
        throw reader.fieldError(ratioPath, "Forbidden: must be nil when type is not RequestedToCapacityRatio");
      }
      return type.equals("LeastAllocated") ? Scorers.leastAllocated(resources) : Scorers.mostAllocated(resources);
    }
    if (ratio == null) {
      throw reader.requiredValue(ratioPath, "must be specified when type is RequestedToCapacityRatio");
    }
    reader.object(ratio, ratioPath, Set.of("shape"));
    var shapeNode = ConfigReader.field(ratio, "shape");
    var shape = shape(shapeNode, ratioPath + ".shape");
    if (shape.isEmpty()) {
      throw reader.requiredValue(ratioPath + ".shape", "at least one point must be specified");
    }
    return new RequestedToCapacityRatioScorer(shape, resources);
  }

  /** kube's {@code validateFunctionShape}, but an absent or empty shape is returned empty for the caller to judge. */
  private List<ShapePoint> shape(@Nullable JsonNode node, String path) {
    if (node == null) {
      return List.of();
    }
    var points = new ArrayList<int[]>();
    for (var entry : reader.list(node, path)) {
      reader.object(entry.node(), entry.path(), Set.of("utilization", "score"));
      var utilization = ConfigReader.field(entry.node(), "utilization");
      var score = ConfigReader.field(entry.node(), "score");
      points.add(new int[] {
        utilization == null ? 0 : reader.int32(utilization, entry.path() + ".utilization"),
        score == null ? 0 : reader.int32(score, entry.path() + ".score")
      });
    }
    for (int i = 1; i < points.size(); i++) {
      if (points.get(i - 1)[0] >= points.get(i)[0]) {
        throw reader.invalid(path + "[" + i + "].utilization", points.get(i)[0],
            "values must be sorted in increasing order");
      }
    }
    var shape = new ArrayList<ShapePoint>();
    for (int i = 0; i < points.size(); i++) {
      int utilization = points.get(i)[0];
      int score = points.get(i)[1];
      if (utilization < 0 || utilization > ShapePoint.MAX_UTILIZATION) {
        throw reader.invalid(path + "[" + i + "].utilization", utilization, "not in valid range [0, 100]");
      }
      if (score < 0 || score > ShapePoint.MAX_SHAPE_SCORE) {
        throw reader.invalid(path + "[" + i + "].score", score, "not in valid range [0, 10]");
      }
      shape.add(new ShapePoint(utilization, score));
    }
    return shape;
  }

  private void podTopologySpread(JsonNode node, String path) {
    args("PodTopologySpread", node, path, "defaultConstraints", "defaultingType");
    var typeNode = ConfigReader.field(node, "defaultingType");
    var type = typeNode == null ? "" : reader.string(typeNode, path + ".defaultingType");
    if (type.isEmpty()) {
      type = "System";
    }
    if (!DEFAULTING_TYPES.contains(type)) {
      throw reader.unsupported(path + ".defaultingType", type, List.of("System", "List"));
    }
    var constraints = new ArrayList<TopologySpreadConstraint>();
    var listed = ConfigReader.field(node, "defaultConstraints");
    if (listed != null) {
      for (var entry : reader.list(listed, path + ".defaultConstraints")) {
        constraints.add(constraint(entry.node(), entry.path()));
      }
    }
    try {
      spread = new PodTopologySpreadArgs(
          constraints,
          type.equals("System")
              ? PodTopologySpreadArgs.DefaultingType.SYSTEM
              : PodTopologySpreadArgs.DefaultingType.LIST);
    } catch (IllegalArgumentException invalid) {
      var message = invalid.getMessage();
      throw message.startsWith("[") ? reader.error(path, "is invalid: " + message) : reader.nested(path, message);
    }
  }

  private TopologySpreadConstraint constraint(JsonNode node, String path) {
    reader.object(node, path, Set.of(
        "maxSkew", "topologyKey", "whenUnsatisfiable", "labelSelector", "minDomains", "nodeAffinityPolicy",
        "nodeTaintsPolicy", "matchLabelKeys"));
    if (ConfigReader.field(node, "labelSelector") != null) {
      throw reader.fieldError(path + ".labelSelector",
          "Forbidden: constraint must not define a selector, as they deduced for each pod");
    }
    var maxSkew = ConfigReader.field(node, "maxSkew");
    var key = ConfigReader.field(node, "topologyKey");
    var whenNode = ConfigReader.field(node, "whenUnsatisfiable");
    var when = whenNode == null ? "" : reader.string(whenNode, path + ".whenUnsatisfiable");
    if (when.isEmpty()) {
      throw reader.requiredValue(path + ".whenUnsatisfiable", "can not be empty");
    }
    if (!WHEN_UNSATISFIABLE.contains(when)) {
      throw reader.unsupported(path + ".whenUnsatisfiable", when, WHEN_UNSATISFIABLE);
    }
    var minDomainsNode = ConfigReader.field(node, "minDomains");
    int minDomains = minDomainsNode == null ? 1 : reader.int32(minDomainsNode, path + ".minDomains");
    if (minDomains < 1) {
      throw reader.invalid(path + ".minDomains", minDomains, "must be greater than zero");
    }
    var labelKeys = ConfigReader.field(node, "matchLabelKeys");
    return new TopologySpreadConstraint(
        maxSkew == null ? 0 : reader.int32(maxSkew, path + ".maxSkew"),
        key == null ? "" : reader.string(key, path + ".topologyKey"),
        when.equals("DoNotSchedule") ? WhenUnsatisfiable.DO_NOT_SCHEDULE : WhenUnsatisfiable.SCHEDULE_ANYWAY,
        null,
        minDomains,
        inclusion(node, "nodeAffinityPolicy", path, InclusionPolicy.HONOR),
        inclusion(node, "nodeTaintsPolicy", path, InclusionPolicy.IGNORE),
        labelKeys == null ? List.of() : reader.strings(labelKeys, path + ".matchLabelKeys"));
  }

  private InclusionPolicy inclusion(JsonNode node, String field, String path, InclusionPolicy unset) {
    var value = ConfigReader.field(node, field);
    if (value == null) {
      return unset;
    }
    var name = reader.string(value, path + "." + field);
    if (!INCLUSION_POLICIES.contains(name)) {
      throw reader.unsupported(path + "." + field, name, INCLUSION_POLICIES);
    }
    return name.equals("Honor") ? InclusionPolicy.HONOR : InclusionPolicy.IGNORE;
  }

  private void volumeBinding(JsonNode node, String path) {
    args("VolumeBinding", node, path, "bindTimeoutSeconds", "shape");
    var timeout = ConfigReader.field(node, "bindTimeoutSeconds");
    if (timeout != null) {
      long seconds = reader.int64(timeout, path + ".bindTimeoutSeconds");
      if (seconds < 0) {
        throw reader.invalid(path + ".bindTimeoutSeconds", seconds,
            "invalid BindTimeoutSeconds, should not be a negative value");
      }
      if (seconds != DEFAULT_BIND_TIMEOUT_SECONDS) {
        throw reader.error(path + ".bindTimeoutSeconds", "is " + seconds + ": only kube's default "
            + DEFAULT_BIND_TIMEOUT_SECONDS + " is supported here; the controller's volume binding timeout is one for"
            + " every profile, set with Options.Builder.volumeBindingTimeout");
      }
    }
    var shape = shape(ConfigReader.field(node, "shape"), path + ".shape");
    volumeShape = shape.isEmpty() ? VolumeBindingScorer.DEFAULT_SHAPE : shape;
  }

  /**
   * kube's {@code DynamicResourcesArgs}: {@code filterTimeout} (how long one node's allocation may take before the
   * attempt is an error) and {@code bindingTimeout} (how long PreBind waits for binding conditions) are accepted at
   * kube's defaults, {@value #DRA_FILTER_TIMEOUT_SECONDS}s and {@value #DRA_BINDING_TIMEOUT_SECONDS}s, only: this
   * scheduler's allocator runs without a deadline, and the binding side is one for every profile.
   */
  private void dynamicResources(JsonNode node, String path) {
    args("DynamicResources", node, path, "filterTimeout", "bindingTimeout");
    dynamicResourcesTimeout(node, path, "filterTimeout", DRA_FILTER_TIMEOUT_SECONDS);
    dynamicResourcesTimeout(node, path, "bindingTimeout", DRA_BINDING_TIMEOUT_SECONDS);
  }

  private void dynamicResourcesTimeout(JsonNode node, String path, String field, long defaultSeconds) {
    var value = ConfigReader.field(node, field);
    if (value == null) {
      return;
    }
    var duration = reader.duration(value, path + "." + field);
    if (duration.isNegative()) {
      throw reader.invalid(path + "." + field, GoDuration.format(duration), "must be zero or positive");
    }
    if (!duration.equals(java.time.Duration.ofSeconds(defaultSeconds))) {
      throw reader.error(path + "." + field, "is " + GoDuration.format(duration) + ": only kube's default "
          + GoDuration.format(java.time.Duration.ofSeconds(defaultSeconds)) + " is supported here");
    }
  }
}
