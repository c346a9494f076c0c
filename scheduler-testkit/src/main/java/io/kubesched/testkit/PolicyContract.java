package io.kubesched.testkit;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.apiguardian.api.API;

/**
 * The rules every placement policy must keep, as jqwik properties. Implement it in a test class that your
 * build runs, say how to make your policy and which nodes it may choose, and jqwik checks the policy
 * against generated {@link Scenario scenarios}:
 *
 * <pre>{@code
 * class BinPackingPolicyProperties implements PolicyContract {
 *
 *   @Override
 *   public FinderFunc policy(long seed) {
 *     return new BinPacking(new Random(seed)); // whatever randomness it has comes from the seed
 *   }
 *
 *   @Override
 *   public boolean feasible(PodInfo pod, NodeInfo node) {
 *     return !node.unschedulable() && BinPacking.fits(pod, node); // the filter it must respect
 *   }
 *
 *   @Override
 *   public Arbitrary<Scenario> scenarios() { // optional: other scenarios
 *     return KubeArbitraries.scenarios().ofClusterSize(1, 20);
 *   }
 * }
 * }</pre>
 *
 * <p>The rules, one property each, so that a failure names the broken rule:
 *
 * <ul>
 *   <li>{@link #bindsOnlyToAGivenNode}: a {@link Decision.Bind} names one of the nodes the policy was given;
 *   <li>{@link #bindsOnlyToAFeasibleNode}: and one that {@link #feasible} accepts;
 *   <li>{@link #explainsEveryNodeWhenItBindsNowhere}: a {@link Decision.Unschedulable} gives at least one
 *       reason for every node, and none for a node it was not given, as kube-scheduler does;
 *   <li>{@link #decidesTheSameWithTheSameSeed}: two policies made with the same seed decide the same for the
 *       same pod and nodes;
 *   <li>{@link #decidesWithoutThrowing}: it returns a decision, never {@code null} or an exception, for every
 *       generated pod and cluster, including empty clusters and amounts near {@link Long#MAX_VALUE};
 *   <li>{@link #explainsInKubeSchedulersWords}: every reason is one line without surrounding blanks or a
 *       final period, so that {@link Decision.Unschedulable#message(int)} reads as kube-scheduler's {@code
 *       "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) were unschedulable."}.
 * </ul>
 *
 * <p>Binding nowhere although a node is feasible is allowed: {@link #feasible} is the loosest filter the
 * policy must respect, and a policy may be stricter. The statistics jqwik prints show how often the policy
 * bound the pod; {@link #bindsOnlyToAFeasibleNode} fails if the scenarios never had a feasible node, or never
 * lacked one, because then the contract did not test the policy on both sides.
 *
 * <p>The pod and node lists a policy receives are unmodifiable: a policy that sorts them in place throws, as
 * it should learn. jqwik calls the properties on its test thread, with its own number of tries ({@code
 * jqwik.tries.default}, 1000 unless configured) and seeds.
 */
@API(status = MAINTAINED, since = "0.1.0")
public interface PolicyContract {

  /** The name of the scenario arbitrary the properties draw from: {@link #contractScenarios()}. */
  String SCENARIOS = "io.kubesched.testkit.PolicyContract.scenarios";

  /**
   * The name of the seed arbitrary the properties draw from: {@link #contractSeeds()}. Named rather than
   * resolved by type, so that the properties run the same under a {@code @Domain} on the implementing class.
   */
  String SEEDS = "io.kubesched.testkit.PolicyContract.seeds";

  /**
   * Makes the policy under test. Called for every try, twice for {@link #decidesTheSameWithTheSameSeed}.
   *
   * @param seed the seed of whatever randomness the policy has
   * @return a new policy, never {@code null}
   */
  FinderFunc policy(long seed);

  /**
   * The filter the policy must respect: whether it may bind {@code pod} to {@code node}. Every node by
   * default; override it with your policy's hard constraints (resources, cordons, taints, selectors).
   *
   * @param pod the pending pod
   * @param node one of the nodes the policy was given
   * @return whether binding {@code pod} to {@code node} is allowed
   */
  default boolean feasible(PodInfo pod, NodeInfo node) {
    return true;
  }

  /**
   * The filter the policy must respect, for a rule that looks beyond one node (pod affinity, spreading):
   * whether it may bind {@code pod} to {@code node} in {@code cluster}. The properties call this one; by
   * default it asks {@link #feasible(PodInfo, NodeInfo)}.
   *
   * @param pod the pending pod
   * @param node one of the nodes the policy was given
   * @param cluster the snapshot the policy was given, {@code node} included
   * @return whether binding {@code pod} to {@code node} is allowed
   */
  default boolean feasible(PodInfo pod, NodeInfo node, ClusterSnapshot cluster) {
    return feasible(pod, node);
  }

  /**
   * The scenarios the properties try. Override it to draw others, for example {@link
   * ScenarioArbitrary#ofClusterSize(int, int)} or {@link ScenarioArbitrary#withPods(Arbitrary)}; no
   * annotation is needed on the override.
   *
   * @return {@link KubeArbitraries#scenarios()} unless overridden
   */
  default Arbitrary<Scenario> scenarios() {
    return KubeArbitraries.scenarios();
  }

  /**
   * The provider jqwik resolves {@link #SCENARIOS} with; it delegates to {@link #scenarios()}, which is the
   * one to override.
   *
   * @return {@link #scenarios()}
   */
  @Provide(SCENARIOS)
  default Arbitrary<Scenario> contractScenarios() {
    return scenarios();
  }

  /**
   * The provider jqwik resolves {@link #SEEDS} with.
   *
   * @return any {@code long}
   */
  @Provide(SEEDS)
  default Arbitrary<Long> contractSeeds() {
    return Arbitraries.longs();
  }

  /** A bound pod goes to one of the nodes the policy was given, never to a name it made up or remembered. */
  @Property
  @Label("binds only to a node it was given")
  default void bindsOnlyToAGivenNode(@ForAll(SCENARIOS) Scenario scenario, @ForAll(SEEDS) long seed) {
    var decision = decide(policy(seed), scenario);
    if (decision instanceof Decision.Bind bind && scenario.cluster().node(bind.nodeName()).isEmpty()) {
      throw new AssertionError(
          "the policy bound pod "
              + scenario.pod().key()
              + " to node '"
              + bind.nodeName()
              + "', which is not one of the nodes it was given: "
              + scenario.cluster().nodeNames());
    }
  }

  /**
   * A bound pod goes to a node {@link #feasible} accepts. A bind to a node that was not given is left to
   * {@link #bindsOnlyToAGivenNode}. Fails as well when the scenarios never had a feasible node, or never
   * lacked one.
   */
  @Property
  @Label("binds only to a feasible node")
  default void bindsOnlyToAFeasibleNode(@ForAll(SCENARIOS) Scenario scenario, @ForAll(SEEDS) long seed) {
    var pod = scenario.pod();
    var cluster = ClusterSnapshot.of(scenario.nodes());
    boolean anyFeasible = scenario.nodes().stream().anyMatch(node -> feasible(pod, node, cluster));
    var decision = decide(policy(seed), scenario);

    Statistics.label("decision").collect(outcome(decision));
    Statistics.label("feasible node").collect(anyFeasible ? "exists" : "none");
    Statistics.label("feasible node")
        .coverage(
            coverage -> {
              coverage
                  .check("exists")
                  .count(
                      (Integer count) -> {
                        if (count == 0) {
                          throw new AssertionError(
                              "no scenario had a node that feasible(pod, node) accepts, so the policy was never"
                                  + " tried where it may bind: draw other scenarios (override scenarios()) or"
                                  + " check feasible");
                        }
                      });
              coverage
                  .check("none")
                  .count(
                      (Integer count) -> {
                        if (count == 0) {
                          throw new AssertionError(
                              "every scenario had a node that feasible(pod, node) accepts, so the policy was never"
                                  + " tried where it must bind nowhere: allow empty clusters or draw pods that"
                                  + " fit nowhere (override scenarios())");
                        }
                      });
            });

    if (decision instanceof Decision.Bind bind) {
      var node = scenario.cluster().node(bind.nodeName());
      if (node.isPresent() && !feasible(pod, node.get(), cluster)) {
        throw new AssertionError(
            "the policy bound pod "
                + pod.key()
                + " to node "
                + bind.nodeName()
                + ", which feasible(pod, node) rejects");
      }
    }
  }

  /**
   * When the pod fits nowhere, every node the policy was given has at least one reason, and no other node
   * has any: kube-scheduler reports why each node was rejected, and counts the nodes in its message.
   */
  @Property
  @Label("gives a reason for every node when it binds nowhere")
  default void explainsEveryNodeWhenItBindsNowhere(@ForAll(SCENARIOS) Scenario scenario, @ForAll(SEEDS) long seed) {
    var decision = decide(policy(seed), scenario);
    if (!(decision instanceof Decision.Unschedulable unschedulable)) {
      return;
    }
    var reasons = unschedulable.reasonsByNode();
    var given = scenario.cluster().nodeNames();
    var unexplained = given.stream().filter(name -> reasons.getOrDefault(name, List.of()).isEmpty()).toList();
    if (!unexplained.isEmpty()) {
      throw new AssertionError(
          "the policy found pod "
              + scenario.pod().key()
              + " unschedulable but gave no reason for node(s) "
              + unexplained
              + "; reasons given: "
              + reasons);
    }
    var unknown = new ArrayList<>(reasons.keySet());
    unknown.removeAll(new HashSet<>(given));
    if (!unknown.isEmpty()) {
      throw new AssertionError(
          "the policy gave reasons for node(s) "
              + unknown
              + " it was not given (pod "
              + scenario.pod().key()
              + ", nodes "
              + given
              + ")");
    }
  }

  /** Two policies made with the same seed decide the same for the same pod and nodes. */
  @Property
  @Label("decides the same with the same seed")
  default void decidesTheSameWithTheSameSeed(@ForAll(SCENARIOS) Scenario scenario, @ForAll(SEEDS) long seed) {
    var first = decide(policy(seed), scenario);
    var second = decide(policy(seed), scenario);
    if (!first.equals(second)) {
      throw new AssertionError(
          "two policies made with seed "
              + seed
              + " decided differently for pod "
              + scenario.pod().key()
              + " on nodes "
              + scenario.cluster().nodeNames()
              + ": "
              + first
              + " and then "
              + second);
    }
  }

  /** The policy returns a decision for every generated input: no exception, no {@code null}. */
  @Property
  @Label("decides without throwing")
  default void decidesWithoutThrowing(@ForAll(SCENARIOS) Scenario scenario, @ForAll(SEEDS) long seed) {
    var policy = policy(seed);
    Decision decision;
    try {
      decision = decide(policy, scenario);
    } catch (RuntimeException e) {
      throw new AssertionError(
          "the policy threw " + e + " for pod " + scenario.pod().key() + " on nodes " + scenario.cluster().nodeNames(),
          e);
    }
    Statistics.label("decision").collect(outcome(decision));
    Statistics.label("nodes").collect(scenario.cluster().size() == 0 ? "none" : "some");
  }

  /**
   * Every reason is one line of text without surrounding blanks or a final period, so that the message
   * reads as kube-scheduler's: {@code "0/N nodes are available: "}, then each distinct reason with the
   * number of nodes that gave it, joined by {@code ", "}, then a period; then, if a PostFilter (preemption) ran,
   * a space and its message.
   */
  @Property
  @Label("explains in kube-scheduler's words")
  default void explainsInKubeSchedulersWords(@ForAll(SCENARIOS) Scenario scenario, @ForAll(SEEDS) long seed) {
    var decision = decide(policy(seed), scenario);
    if (!(decision instanceof Decision.Unschedulable unschedulable)) {
      return;
    }
    var counts = new TreeMap<String, Integer>();
    unschedulable
        .reasonsByNode()
        .forEach(
            (node, reasons) -> {
              for (var reason : reasons) {
                if (reason.isBlank()
                    || !reason.strip().equals(reason)
                    || reason.contains("\n")
                    || reason.contains("\r")
                    || reason.endsWith(".")) {
                  throw new AssertionError(
                      "node "
                          + node
                          + " has the reason '"
                          + reason
                          + "': a reason is one line of text without surrounding blanks or a final period, as"
                          + " kube-scheduler's 'Insufficient cpu'");
                }
                counts.merge(reason, 1, Integer::sum);
              }
            });
    int nodeCount = scenario.cluster().size();
    var message = unschedulable.message(nodeCount);
    if (nodeCount == 0) {
      if (!message.equals(Decision.Unschedulable.NO_NODES)) {
        throw new AssertionError(
            "with no node the message must be '" + Decision.Unschedulable.NO_NODES + "', was '" + message + "'");
      }
      return;
    }
    var postFilter = unschedulable.postFilterMessage();
    if (!postFilter.isEmpty()) {
      // What a PostFilter (preemption) found follows the nodes' reasons, after a space, as kube-scheduler adds it.
      if (!message.endsWith(" " + postFilter)) {
        throw new AssertionError(
            "the message must end with the post-filter message '" + postFilter + "', was '" + message + "'");
      }
      message = message.substring(0, message.length() - postFilter.length() - 1);
    }
    var prefix = "0/" + nodeCount + " nodes are available:";
    requireShape(message, prefix, counts);
  }

  private static void requireShape(String message, String prefix, Map<String, Integer> counts) {
    if (counts.isEmpty()) {
      if (!message.equals(prefix)) {
        throw new AssertionError("without reasons the message must be '" + prefix + "', was '" + message + "'");
      }
      return;
    }
    if (!message.startsWith(prefix + " ") || !message.endsWith(".")) {
      throw new AssertionError("the message must be '" + prefix + " <count> <reason>, ....', was '" + message + "'");
    }
    var body = message.substring(prefix.length() + 1, message.length() - 1);
    int expectedLength = 2 * (counts.size() - 1);
    for (var entry : counts.entrySet()) {
      var part = entry.getValue() + " " + entry.getKey();
      if (!body.contains(part)) {
        throw new AssertionError("the message must count '" + part + "', was '" + message + "'");
      }
      expectedLength += part.length();
    }
    if (body.length() != expectedLength) {
      throw new AssertionError(
          "the message must list each reason once with its count, joined by ', ': expected "
              + counts
              + ", was '"
              + message
              + "'");
    }
  }

  private static Decision decide(FinderFunc policy, Scenario scenario) {
    // Declared non-null, yet a user's policy may break its contract: this is where that is caught.
    // The snapshot form is what the controller calls, so a policy that overrides it is held to the contract.
    Decision decision = policy.find(scenario.pod(), ClusterSnapshot.of(scenario.nodes()));
    if (decision == null) {
      throw new AssertionError(
          "the policy returned null for pod "
              + scenario.pod().key()
              + "; it must return Decision.bind(node) or Decision.unschedulable(reasons)");
    }
    return decision;
  }

  private static String outcome(Decision decision) {
    return decision instanceof Decision.Bind ? "bind" : "unschedulable";
  }
}
