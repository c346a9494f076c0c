package io.kubesched.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * Runs {@link PolicyContract} through jqwik's engine on policies that break one rule each, and checks
 * that exactly the properties of the broken rules fail, with a message that names the fault; and that a
 * correct policy passes all of them.
 */
class PolicyContractTest {

  private static final Set<String> ALL_RULES =
      Set.of(
          "bindsOnlyToAGivenNode",
          "bindsOnlyToAFeasibleNode",
          "explainsEveryNodeWhenItBindsNowhere",
          "decidesTheSameWithTheSameSeed",
          "decidesWithoutThrowing",
          "explainsInKubeSchedulersWords");

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void the_contract_fails_exactly_the_rules_a_policy_breaks(Class<?> policy, Map<String, String> failures) {
    var results = run(policy);

    var started = results.testEvents().started().stream().map(PolicyContractTest::property).collect(Collectors.toSet());
    assertEquals(ALL_RULES, started, "every rule of the contract runs");

    var failed = new TreeMap<String, String>();
    results.testEvents().failed().stream().forEach(event -> failed.put(property(event), message(event)));
    assertEquals(new TreeMap<>(failures).keySet(), failed.keySet(), () -> "failures: " + failed);
    failures.forEach(
        (property, expected) ->
            assertTrue(
                failed.get(property).contains(expected),
                () -> property + " should fail with '" + expected + "', failed with: " + failed.get(property)));
  }

  static Stream<Arguments> the_contract_fails_exactly_the_rules_a_policy_breaks() {
    return Stream.of(
        Arguments.of(Named.of("a correct first-fit policy", FirstFitPolicyProperties.class), Map.of()),
        Arguments.of(
            Named.of("a policy that binds to a node it was not given", BrokenPolicies.BindsToANodeItWasNotGiven.class),
            Map.of("bindsOnlyToAGivenNode", "to node 'node-elsewhere', which is not one of the nodes it was given")),
        Arguments.of(
            Named.of("a policy that binds to an infeasible node", BrokenPolicies.BindsToAnInfeasibleNode.class),
            Map.of("bindsOnlyToAFeasibleNode", "which feasible(pod, node) rejects")),
        Arguments.of(
            Named.of("a policy that explains only the first node", BrokenPolicies.ExplainsOnlyTheFirstNode.class),
            Map.of("explainsEveryNodeWhenItBindsNowhere", "unschedulable but gave no reason for node(s)")),
        Arguments.of(
            Named.of("a policy that ignores its seed", BrokenPolicies.IgnoresTheSeed.class),
            Map.of("decidesTheSameWithTheSameSeed", "decided differently")),
        Arguments.of(
            Named.of("a policy that ends its reasons with a period", BrokenPolicies.EndsItsReasonsWithAPeriod.class),
            Map.of("explainsInKubeSchedulersWords", "without surrounding blanks or a final period")),
        Arguments.of(
            // Every rule needs a decision, so every property fails; only one names the exception as the fault.
            // The other messages name just the exception's class: a JVM may drop the text of a hot one.
            Named.of("a policy that throws on an empty cluster", BrokenPolicies.ThrowsOnAnEmptyCluster.class),
            Map.of(
                "decidesWithoutThrowing", "the policy threw",
                "bindsOnlyToAGivenNode", "IndexOutOfBoundsException",
                "bindsOnlyToAFeasibleNode", "IndexOutOfBoundsException",
                "explainsEveryNodeWhenItBindsNowhere", "IndexOutOfBoundsException",
                "decidesTheSameWithTheSameSeed", "IndexOutOfBoundsException",
                "explainsInKubeSchedulersWords", "IndexOutOfBoundsException")),
        Arguments.of(
            Named.of(
                "a correct policy tried only where a feasible node exists",
                BrokenPolicies.NeverTriedWithoutAFeasibleNode.class),
            Map.of("bindsOnlyToAFeasibleNode", "never tried where it must bind nowhere")));
  }

  private static EngineExecutionResults run(Class<?> policy) {
    return EngineTestKit.engine("jqwik")
        .selectors(selectClass(policy))
        // Fewer tries are enough to catch each broken rule; no shrinking, as only the failure counts here.
        .configurationParameter("jqwik.tries.default", "300")
        .configurationParameter("jqwik.shrinking.default", "OFF")
        .configurationParameter("jqwik.database", "target/jqwik-database-policy-contract-test")
        .configurationParameter("jqwik.failures.runfirst", "false")
        // Reports go to the engine's listener, captured by the kit, instead of the build's output.
        .configurationParameter("jqwik.reporting.usejunitplatform", "true")
        .execute();
  }

  private static String property(Event event) {
    return event
        .getTestDescriptor()
        .getSource()
        .filter(org.junit.platform.engine.support.descriptor.MethodSource.class::isInstance)
        .map(source -> ((org.junit.platform.engine.support.descriptor.MethodSource) source).getMethodName())
        .orElseGet(() -> event.getTestDescriptor().getDisplayName());
  }

  private static String message(Event event) {
    return event
        .getPayload(TestExecutionResult.class)
        .flatMap(TestExecutionResult::getThrowable)
        .map(Throwable::toString)
        .orElse("");
  }
}
