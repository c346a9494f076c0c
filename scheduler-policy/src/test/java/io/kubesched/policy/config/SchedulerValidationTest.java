package io.kubesched.policy.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's validation tables ({@code pkg/scheduler/apis/config/validation}: {@code validation_test.go}'s {@code
 * TestValidateKubeSchedulerConfigurationV1} and {@code validation_pluginargs_test.go}'s {@code Validate*Args}
 * tests), under kube's case names, for the fields this library reads. Each case is a file; the expectation is the
 * start of the error's path and kube's words, or none for a valid case. kube's test profiles use out-of-tree
 * {@code CustomSort} and {@code CustomBind} plugins; here the in-tree {@code PrioritySort} and {@code DefaultBinder}
 * stand in for them. The extender cases are left out: this library refuses extenders.
 */
class SchedulerValidationTest {

  /** kube's {@code validConfig}, in this library's terms. */
  private static final String VALID =
      """
      parallelism: 8
      clientConnection: {acceptContentTypes: application/json, contentType: application/json, qps: 10, burst: 10}
      leaderElection:
        resourceLock: leases
        leaderElect: true
        leaseDuration: 30s
        renewDeadline: 15s
        retryPeriod: 5s
        resourceNamespace: name
        resourceName: name
      podInitialBackoffSeconds: 1
      podMaxBackoffSeconds: 1
      profiles:
        - schedulerName: me
          percentageOfNodesToScore: 35
          plugins:
            queueSort: {enabled: [{name: PrioritySort}], disabled: [{name: "*"}]}
            score: {disabled: [{name: "*"}]}
          pluginConfig:
            - name: DefaultPreemption
              args: {minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100}
        - schedulerName: other
          percentageOfNodesToScore: 35
          plugins:
            queueSort: {enabled: [{name: PrioritySort}], disabled: [{name: "*"}]}
            bind: {enabled: [{name: DefaultBinder}], disabled: [{name: "*"}]}
      """;

  private static String replace(String target, String replacement) {
    if (!VALID.contains(target)) {
      throw new IllegalArgumentException(target);
    }
    return VALID.replace(target, replacement);
  }

  static Stream<Arguments> validateKubeSchedulerConfigurationV1() {
    return Stream.of(
        Arguments.of("good", VALID, null),
        Arguments.of("bad-parallelism-invalid-value", replace("parallelism: 8", "parallelism: 0"),
            "parallelism: Invalid value: 0: should be an integer value greater than zero"),
        Arguments.of("bad-resource-lock-not-leases", replace("resourceLock: leases", "resourceLock: configmap"),
            "leaderElection.resourceLock: Invalid value: \"configmap\": resourceLock value must be \"leases\""),
        Arguments.of("bad-percentage-of-nodes-to-score", "percentageOfNodesToScore: 101\n" + VALID,
            "percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"),
        Arguments.of("negative-percentage-of-nodes-to-score", "percentageOfNodesToScore: -1\n" + VALID,
            "percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]"),
        Arguments.of("scheduler-name-not-set", replace("- schedulerName: other", "- schedulerName: \"\""),
            "profiles[1].schedulerName: Required value"),
        Arguments.of("repeated-scheduler-name", replace("- schedulerName: me", "- schedulerName: other"),
            "profiles[1].schedulerName: Duplicate value: \"other\""),
        Arguments.of("greater-than-100-profile-percentage-of-nodes-to-score",
            VALID.replaceFirst("(other\n    percentageOfNodesToScore: )35", "$1101"),
            "profiles[1].percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"),
        Arguments.of("negative-profile-percentage-of-nodes-to-score",
            VALID.replaceFirst("(other\n    percentageOfNodesToScore: )35", "$1-1"),
            "profiles[1].percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]"),
        Arguments.of("different-queue-sort",
            replace("      queueSort: {enabled: [{name: PrioritySort}], disabled: [{name: \"*\"}]}\n      bind:",
                "      queueSort: {enabled: [{name: PrioritySort}]}\n      bind:"),
            "profiles[1].plugins.queueSort: Invalid value: {enabled: [PrioritySort], disabled: []}: must be the"
                + " same for all profiles"),
        Arguments.of("one-empty-queue-sort",
            replace("      queueSort: {enabled: [{name: PrioritySort}], disabled: [{name: \"*\"}]}\n      score:",
                "      score:"),
            "profiles[1].plugins.queueSort: Invalid value: {enabled: [PrioritySort], disabled: [*]}: must be the"
                + " same for all profiles (as profiles[0]: {enabled: [], disabled: []})"),
        Arguments.of("invalid-node-percentage",
            replace("minCandidateNodesPercentage: 10", "minCandidateNodesPercentage: 200"),
            "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 200: not in valid range"
                + " [0, 100]"),
        Arguments.of("invalid-plugin-args",
            replace("args: {minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100}",
                "args: {kind: InterPodAffinityArgs}"),
            "profiles[0].pluginConfig[0].args.kind must be DefaultPreemptionArgs"),
        Arguments.of("duplicated-plugin-config",
            replace("    pluginConfig:\n", "    pluginConfig:\n      - name: NodeName\n      - name: NodeName\n"),
            "profiles[0].pluginConfig[1]: Duplicate value: \"NodeName\""),
        Arguments.of("mismatch-queue-sort", """
            profiles:
              - schedulerName: me
                plugins: {queueSort: {enabled: [{name: PrioritySort}]}}
                pluginConfig: [{name: PrioritySort}]
              - schedulerName: other
                plugins: {queueSort: {enabled: [{name: PrioritySort, weight: 2}]}}
                pluginConfig: [{name: PrioritySort}]
            """,
            "profiles[1].plugins.queueSort: Invalid value: {enabled: [PrioritySort:2], disabled: []}: must be the"
                + " same for all profiles"),
        Arguments.of("invalid-plugins",
            replace("score: {disabled: [{name: \"*\"}]}", "score: {disabled: [{name: \"*\"}], enabled: [{name: "
                + "AzureDiskLimits}, {name: CinderLimits}, {name: EBSLimits}, {name: GCEPDLimits}]}"),
            "profiles[0].plugins.score.enabled[0]: Invalid value: \"AzureDiskLimits\": was invalid in version"
                + " \"kubescheduler.config.k8s.io/v1\""),
        Arguments.of("valid-plugins",
            replace("score: {disabled: [{name: \"*\"}]}",
                "score: {disabled: [{name: \"*\"}], enabled: [{name: PodTopologySpread, weight: 2}]}"),
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void validateKubeSchedulerConfigurationV1(String name, String body, @Nullable String message) {
    check(body, message);
  }

  private static String args(String plugin, String args) {
    return "profiles: [{pluginConfig: [{name: " + plugin + ", args: " + args + "}]}]";
  }

  private static final String ARGS = "profiles[0].pluginConfig[0].args.";

  static Stream<Arguments> validatePluginArgs() {
    return Stream.of(
        // TestValidateDefaultPreemptionArgs
        Arguments.of("valid args (default)", args("DefaultPreemption", "{}"), null),
        Arguments.of("negative minCandidateNodesPercentage",
            args("DefaultPreemption", "{minCandidateNodesPercentage: -1, minCandidateNodesAbsolute: 100}"),
            ARGS + "minCandidateNodesPercentage: Invalid value: -1: not in valid range [0, 100]"),
        Arguments.of("minCandidateNodesPercentage over 100",
            args("DefaultPreemption", "{minCandidateNodesPercentage: 900, minCandidateNodesAbsolute: 100}"),
            ARGS + "minCandidateNodesPercentage: Invalid value: 900: not in valid range [0, 100]"),
        Arguments.of("negative minCandidateNodesAbsolute",
            args("DefaultPreemption", "{minCandidateNodesPercentage: 20, minCandidateNodesAbsolute: -1}"),
            ARGS + "minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)"),
        Arguments.of("all zero",
            args("DefaultPreemption", "{minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 0}"),
            ARGS + "minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as"
                + " minCandidateNodesAbsolute"),
        Arguments.of("both negative",
            args("DefaultPreemption", "{minCandidateNodesPercentage: -1, minCandidateNodesAbsolute: -1}"),
            ARGS + "minCandidateNodesPercentage: Invalid value: -1: not in valid range [0, 100]"),
        // TestValidateInterPodAffinityArgs
        Arguments.of("valid args", args("InterPodAffinity", "{hardPodAffinityWeight: 10}"), null),
        Arguments.of("hardPodAffinityWeight less than min", args("InterPodAffinity", "{hardPodAffinityWeight: -1}"),
            ARGS + "hardPodAffinityWeight: Invalid value: -1: not in valid range [0, 100]"),
        Arguments.of("hardPodAffinityWeight more than max", args("InterPodAffinity", "{hardPodAffinityWeight: 101}"),
            ARGS + "hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]"),
        // TestValidatePodTopologySpreadArgs
        Arguments.of("valid config", args("PodTopologySpread", "{defaultingType: List, defaultConstraints: ["
                + "{maxSkew: 1, topologyKey: node, whenUnsatisfiable: DoNotSchedule},"
                + "{maxSkew: 2, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}]}"), null),
        Arguments.of("maxSkew less than zero", args("PodTopologySpread", "{defaultingType: List, defaultConstraints: ["
                + "{maxSkew: -1, topologyKey: node, whenUnsatisfiable: DoNotSchedule}]}"),
            ARGS + "defaultConstraints[0].maxSkew: Invalid value: -1: not in valid range (0, inf)"),
        Arguments.of("empty topology key", args("PodTopologySpread", "{defaultingType: List, defaultConstraints: ["
                + "{maxSkew: 1, topologyKey: \"\", whenUnsatisfiable: DoNotSchedule}]}"),
            ARGS + "defaultConstraints[0].topologyKey: Required value: can not be empty"),
        Arguments.of("whenUnsatisfiable is empty", args("PodTopologySpread", "{defaultingType: List, "
                + "defaultConstraints: [{maxSkew: 1, topologyKey: node, whenUnsatisfiable: \"\"}]}"),
            ARGS + "defaultConstraints[0].whenUnsatisfiable: Required value: can not be empty"),
        Arguments.of("whenUnsatisfiable contains unsupported action", args("PodTopologySpread", "{defaultingType: List,"
                + " defaultConstraints: [{maxSkew: 1, topologyKey: node, whenUnsatisfiable: unknown action}]}"),
            ARGS + "defaultConstraints[0].whenUnsatisfiable: Unsupported value: \"unknown action\": supported values:"
                + " \"DoNotSchedule\", \"ScheduleAnyway\""),
        Arguments.of("duplicated constraints", args("PodTopologySpread", "{defaultingType: List, defaultConstraints: ["
                + "{maxSkew: 1, topologyKey: node, whenUnsatisfiable: DoNotSchedule},"
                + "{maxSkew: 2, topologyKey: node, whenUnsatisfiable: DoNotSchedule}]}"),
            ARGS + "defaultConstraints[1]: Duplicate value: \"{node, DoNotSchedule}\""),
        Arguments.of("label selector present", args("PodTopologySpread", "{defaultingType: List, defaultConstraints: ["
                + "{maxSkew: 1, topologyKey: key, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {a: b}}}]}"),
            ARGS + "defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector"),
        Arguments.of("list default constraints, no constraints", args("PodTopologySpread", "{defaultingType: List}"),
            null),
        Arguments.of("system default constraints", args("PodTopologySpread", "{defaultingType: System}"), null),
        Arguments.of("wrong constraints", args("PodTopologySpread", "{defaultingType: unknown}"),
            ARGS + "defaultingType: Unsupported value: \"unknown\": supported values: \"System\", \"List\""),
        Arguments.of("system default constraints, but has constraints", args("PodTopologySpread",
                "{defaultingType: System, defaultConstraints: [{maxSkew: 1, topologyKey: key, "
                    + "whenUnsatisfiable: DoNotSchedule}]}"),
            ARGS + "defaultingType: Invalid value: \"System\": when .defaultConstraints are not empty"),
        // TestValidateNodeResourcesBalancedAllocationArgs
        Arguments.of("valid config", args("NodeResourcesBalancedAllocation",
            "{resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]}"), null),
        Arguments.of("invalid config", args("NodeResourcesBalancedAllocation",
                "{resources: [{name: cpu, weight: 2}, {name: memory, weight: 1}]}"),
            ARGS + "resources[0].weight: Invalid value: 2: must be 1"),
        Arguments.of("repeated resources", args("NodeResourcesBalancedAllocation",
                "{resources: [{name: cpu, weight: 1}, {name: cpu, weight: 1}]}"),
            ARGS + "resources[1].name: Duplicate value: \"cpu\""),
        // TestValidateNodeAffinityArgs
        Arguments.of("empty", args("NodeAffinity", "{}"), null),
        Arguments.of("valid added affinity", args("NodeAffinity", "{addedAffinity: {"
            + "requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: "
            + "[{key: label-1, operator: In, values: [label-1-val]}]}]},"
            + "preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, preference: {matchFields: "
            + "[{key: metadata.name, operator: In, values: [node-1]}]}}]}}"), null),
        Arguments.of("invalid added affinity", args("NodeAffinity", "{addedAffinity: {"
                + "requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: "
                + "[{key: invalid/label/key, operator: In, values: [label-1-val]}]}]}}}"),
            ARGS + "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
                + ".matchExpressions[0].key: Invalid value: \"invalid/label/key\": must be a qualified name"),
        Arguments.of("invalid added affinity (its preferred part)", args("NodeAffinity", "{addedAffinity: {"
                + "preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, preference: {matchFields: "
                + "[{key: metadata.name, operator: In, values: [node-1, node-2]}]}}]}}"),
            ARGS + "addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchFields[0].values:"
                + " Invalid value: [node-1, node-2]: must have one element"),
        // TestValidateVolumeBindingArgs (StorageCapacityScoring is on in 1.37)
        Arguments.of("[StorageCapacityScoring=on] zero is a valid config", args("VolumeBinding",
            "{bindTimeoutSeconds: 600, shape: [{utilization: 0, score: 0}, {utilization: 100, score: 10}]}"), null),
        Arguments.of("[StorageCapacityScoring=on] negative value is invalid config", args("VolumeBinding",
                "{bindTimeoutSeconds: -10}"),
            ARGS + "bindTimeoutSeconds: Invalid value: -10: invalid BindTimeoutSeconds, should not be a negative value"),
        Arguments.of("[StorageCapacityScoring=on] shape points must be sorted in increasing order",
            args("VolumeBinding", "{shape: [{utilization: 10, score: 10}, {utilization: 1, score: 1}]}"),
            ARGS + "shape[1].utilization: Invalid value: 1: values must be sorted in increasing order"),
        Arguments.of("[StorageCapacityScoring=on] shape point: invalid utilization and score",
            args("VolumeBinding", "{shape: [{utilization: -1, score: 1}, {utilization: 10, score: -1}]}"),
            ARGS + "shape[0].utilization: Invalid value: -1: not in valid range [0, 100]"),
        // TestValidateFitArgs
        Arguments.of("IgnoredResources: too long value", args("NodeResourcesFit",
                "{ignoredResources: [longvalue" + "a".repeat(64) + "]}"),
            ARGS + "ignoredResources[0]: Invalid value: \"longvalue"),
        Arguments.of("IgnoredResources: name is empty", args("NodeResourcesFit", "{ignoredResources: [example.com/]}"),
            ARGS + "ignoredResources[0]: Invalid value: \"example.com/\": must be a qualified name"),
        Arguments.of("IgnoredResources: name has too many slash", args("NodeResourcesFit",
                "{ignoredResources: [example.com/aaa/bbb]}"),
            ARGS + "ignoredResources[0]: Invalid value: \"example.com/aaa/bbb\": must be a qualified name"),
        Arguments.of("IgnoredResources: valid args", args("NodeResourcesFit", "{ignoredResources: [example.com]}"),
            null),
        Arguments.of("IgnoredResourceGroups: valid args ", args("NodeResourcesFit",
            "{ignoredResourceGroups: [example.com]}"), null),
        Arguments.of("IgnoredResourceGroups: illegal args", args("NodeResourcesFit",
                "{ignoredResourceGroups: [example.com/]}"),
            ARGS + "ignoredResourceGroups[0]: Invalid value: \"example.com/\": resource group name can't contain '/'"),
        Arguments.of("IgnoredResourceGroups: name is too long", args("NodeResourcesFit",
                "{ignoredResourceGroups: [" + "a".repeat(64) + "]}"),
            ARGS + "ignoredResourceGroups[0]: Invalid value: \"" + "a".repeat(64) + "\": must be a qualified name"),
        Arguments.of("IgnoredResourceGroups: name cannot be contain slash", args("NodeResourcesFit",
                "{ignoredResourceGroups: [example.com/aa]}"),
            ARGS + "ignoredResourceGroups[0]: Invalid value: \"example.com/aa\": resource group name can't contain '/'"),
        Arguments.of("ScoringStrategy: type is unsupported", args("NodeResourcesFit",
                "{scoringStrategy: {type: Invalid}}"),
            ARGS + "scoringStrategy.type: Unsupported value: \"Invalid\""),
        Arguments.of("ScoringStrategy: requestedToCapacityRatio field is missing", args("NodeResourcesFit",
                "{scoringStrategy: {type: RequestedToCapacityRatio}}"),
            ARGS + "scoringStrategy.requestedToCapacityRatio: Required value: must be specified when type is"
                + " RequestedToCapacityRatio"),
        // TestValidateLeastAllocatedScoringStrategy and TestValidateMostAllocatedScoringStrategy
        Arguments.of("default config", args("NodeResourcesFit", "{scoringStrategy: {type: MostAllocated}}"), null),
        Arguments.of("multi valid resources", args("NodeResourcesFit", "{scoringStrategy: {type: LeastAllocated, "
            + "resources: [{name: cpu, weight: 1}, {name: memory, weight: 10}]}}"), null),
        Arguments.of("weight less than min", args("NodeResourcesFit", "{scoringStrategy: {type: MostAllocated, "
                + "resources: [{name: cpu, weight: -1}, {name: memory, weight: 10}]}}"),
            ARGS + "scoringStrategy.resources[0].weight: Invalid value: -1: resource weight of cpu not in valid"
                + " range (0, 100]"),
        Arguments.of("weight greater than max", args("NodeResourcesFit", "{scoringStrategy: {type: LeastAllocated, "
                + "resources: [{name: cpu, weight: 101}, {name: memory, weight: 10}]}}"),
            ARGS + "scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid"
                + " range (0, 100]"),
        // TestValidateRequestedToCapacityRatioScoringStrategy
        Arguments.of("no shapes", args("NodeResourcesFit", "{scoringStrategy: {type: RequestedToCapacityRatio, "
                + "requestedToCapacityRatio: {}}}"),
            ARGS + "scoringStrategy.requestedToCapacityRatio.shape: Required value: at least one point must be"
                + " specified"),
        Arguments.of("valid shapes", args("NodeResourcesFit", "{scoringStrategy: {type: RequestedToCapacityRatio, "
            + "requestedToCapacityRatio: {shape: [{utilization: 30, score: 3}]}}}"), null),
        Arguments.of("utilization less than min", args("NodeResourcesFit", "{scoringStrategy: {type: "
                + "RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: -10, score: 3},"
                + " {utilization: 10, score: 3}]}}}"),
            ARGS + "scoringStrategy.requestedToCapacityRatio.shape[0].utilization: Invalid value: -10: not in valid"
                + " range [0, 100]"),
        Arguments.of("utilization greater than max", args("NodeResourcesFit", "{scoringStrategy: {type: "
                + "RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 10, score: 3},"
                + " {utilization: 110, score: 3}]}}}"),
            ARGS + "scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid value: 110: not in valid"
                + " range [0, 100]"),
        Arguments.of("duplicated utilization values", args("NodeResourcesFit", "{scoringStrategy: {type: "
                + "RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 10, score: 3},"
                + " {utilization: 10, score: 3}]}}}"),
            ARGS + "scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid value: 10: values must be"
                + " sorted in increasing order"),
        Arguments.of("increasing utilization values", args("NodeResourcesFit", "{scoringStrategy: {type: "
            + "RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 10, score: 3},"
            + " {utilization: 20, score: 3}, {utilization: 30, score: 3}]}}}"), null),
        Arguments.of("non-increasing utilization values", args("NodeResourcesFit", "{scoringStrategy: {type: "
                + "RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 10, score: 3},"
                + " {utilization: 20, score: 3}, {utilization: 15, score: 3}]}}}"),
            ARGS + "scoringStrategy.requestedToCapacityRatio.shape[2].utilization: Invalid value: 15: values must be"
                + " sorted in increasing order"),
        Arguments.of("score less than min", args("NodeResourcesFit", "{scoringStrategy: {type: "
                + "RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 10, score: -1}]}}}"),
            ARGS + "scoringStrategy.requestedToCapacityRatio.shape[0].score: Invalid value: -1: not in valid range"
                + " [0, 10]"),
        Arguments.of("score greater than max", args("NodeResourcesFit", "{scoringStrategy: {type: "
                + "RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 10, score: 11}]}}}"),
            ARGS + "scoringStrategy.requestedToCapacityRatio.shape[0].score: Invalid value: 11: not in valid range"
                + " [0, 10]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void validatePluginArgs(String name, String body, @Nullable String message) {
    check(body, message);
  }

  private static void check(String body, @Nullable String message) {
    if (message == null) {
      assertDoesNotThrow(() -> SchedulerConfigurationTest.parse(body));
      return;
    }
    var error = assertThrows(ConfigurationException.class, () -> SchedulerConfigurationTest.parse(body));
    assertTrue(error.getMessage().startsWith("KubeSchedulerConfiguration c.yaml: " + message), error.getMessage());
  }
}
