package io.kubesched.policy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ConfigurationException;
import io.kubesched.policy.PreemptionArgs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A Policy file's {@code preemption}: on with kube's defaults unless turned off, its arguments validated. */
class PolicyFilePreemptionTest {

  private static final String HEAD = "kind: Policy\napiVersion: v1\n";

  @Test
  void a_file_without_preemption_preempts_as_kubes_default_profile() {
    var policy = PolicyFile.parse(HEAD, "p.yaml");

    assertEquals(Optional.of(PreemptionArgs.DEFAULT), policy.preemption());
    assertTrue(policy.reads().contains(ClusterData.POD_DISRUPTION_BUDGETS));
  }

  @Test
  void a_file_sets_the_arguments_or_turns_preemption_off() {
    var args = PolicyFile.parse(
        HEAD + "preemption: {minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 2}\n", "p.yaml");
    var partial = PolicyFile.parse(HEAD + "preemption: {enabled: true, minCandidateNodesAbsolute: 0}\n", "p.yaml");
    var off = PolicyFile.parse(HEAD + "preemption: {enabled: false}\n", "p.yaml");
    var json = PolicyFile.parse(
        "{\"kind\": \"Policy\", \"apiVersion\": \"v1\", \"preemption\": {\"minCandidateNodesPercentage\": 5}}",
        "p.json");

    assertEquals(Optional.of(new PreemptionArgs(40, 2)), args.preemption());
    assertEquals(Optional.of(new PreemptionArgs(10, 0)), partial.preemption());
    assertEquals(Optional.empty(), off.preemption());
    assertTrue(!off.reads().contains(ClusterData.POD_DISRUPTION_BUDGETS));
    assertEquals(Optional.of(new PreemptionArgs(5, 100)), json.preemption());
  }

  @Test
  void the_documented_policy_file_sample_reads_with_its_preemption_arguments() throws Exception {
    var readme = Files.readString(Path.of("../docs/configuration.md"));
    int start = readme.indexOf("```yaml\nkind: Policy\n") + "```yaml\n".length();
    var sample = readme.substring(start, readme.indexOf("```", start));

    var policy = PolicyFile.parse(sample, "docs/configuration.md");

    assertEquals(Optional.of(PreemptionArgs.DEFAULT), policy.preemption());
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of(
            "preemption: {minCandidateNodesPercentage: 101}",
            "policy file p.yaml: preemption is invalid: minCandidateNodesPercentage: Invalid value: 101: not in"
                + " valid range [0, 100]"),
        Arguments.of(
            "preemption: {minCandidateNodesAbsolute: -1}",
            "policy file p.yaml: preemption is invalid: minCandidateNodesAbsolute: Invalid value: -1: not in valid"
                + " range [0, inf)"),
        Arguments.of(
            "preemption: {minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 0}",
            "policy file p.yaml: preemption is invalid: minCandidateNodesPercentage: Invalid value: 0: cannot be"
                + " zero at the same time as minCandidateNodesAbsolute"),
        Arguments.of(
            "preemption: {minCandidateNodesPercentage: ten}",
            "policy file p.yaml: preemption.minCandidateNodesPercentage must be an integer, was \"ten\""),
        Arguments.of(
            "preemption: {enabled: yes please}",
            "policy file p.yaml: preemption.enabled must be true or false, was \"yes please\""),
        Arguments.of(
            "preemption: {enable: false}",
            "policy file p.yaml: preemption.enable is not a known field; valid: [enabled, minCandidateNodesAbsolute,"
                + " minCandidateNodesPercentage]"),
        Arguments.of("preemption: true", "policy file p.yaml: preemption must be an object, was true"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void an_invalid_preemption_is_an_error_naming_the_field_and_the_value(String line, String message) {
    var error = assertThrows(ConfigurationException.class, () -> PolicyFile.parse(HEAD + line + "\n", "p.yaml"));

    assertEquals(message, error.getMessage());
  }
}
