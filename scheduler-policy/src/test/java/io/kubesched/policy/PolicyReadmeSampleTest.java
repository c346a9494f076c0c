package io.kubesched.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The README's policy sample compiles (it is here), works, and is the same text as in the README. */
class PolicyReadmeSampleTest {

  // README-BEGIN
  /** Pods labelled licence=oracle run only where the node's licences/oracle label leaves a slot free. */
  static final Filter ORACLE_LICENCES =
      new Filter() {
        @Override
        public String name() {
          return "OracleLicences";
        }

        @Override
        public FilterResult filter(PodInfo pod, NodeInfo node) {
          if (!"oracle".equals(pod.labels().get("licence"))) {
            return FilterResult.fit();
          }
          long used = node.pods().stream().filter(p -> "oracle".equals(p.labels().get("licence"))).count();
          long slots = Long.parseLong(node.labels().getOrDefault("licences/oracle", "0"));
          return used < slots
              ? FilterResult.fit()
              : FilterResult.unresolvable(Reason.of("node(s) had no free Oracle licence"));
        }
      };

  /** kube-scheduler's defaults, plus the licence check, without image locality, balance counting double. */
  static final Policy POLICY =
      DefaultPolicy.builder()
          .filter(ORACLE_LICENCES)
          .removeScorer("ImageLocality")
          .weight("NodeResourcesBalancedAllocation", 2)
          .build();
  // README-END

  @Test
  void the_sample_sends_a_licensed_pod_to_the_node_with_a_free_licence_and_explains_the_others() {
    var licensed = PodInfo.builder("db", "oracle-0").labels(Map.of("licence", "oracle")).requests(500, 1L << 30).build();
    var full =
        NodeInfo.builder("full")
            .labels(Map.of("licences/oracle", "1"))
            .allocatable(8000, 32L << 30, 110)
            .pods(List.of(PodInfo.builder("db", "oracle-old").labels(licensed.labels()).nodeName("full").build()))
            .build();
    var none = NodeInfo.builder("none").allocatable(8000, 32L << 30, 110).build();
    var free = NodeInfo.builder("free").labels(Map.of("licences/oracle", "2")).allocatable(2000, 4L << 30, 110).build();

    var explanation = POLICY.explain(licensed, List.of(full, none, free));

    assertEquals(Decision.bind("free"), explanation.decision());
    assertEquals(
        "0/2 nodes are available: 2 node(s) had no free Oracle licence. preemption: 0/2 nodes are available: 2"
            + " Preemption is not helpful for scheduling.",
        ((Decision.Unschedulable) POLICY.find(licensed, List.of(full, none))).message(2));
    assertEquals(
        List.of("NodeName", "NodeUnschedulable", "TaintToleration", "NodeAffinity", "NodePorts",
            "NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone",
            "PodTopologySpread", "InterPodAffinity", "DynamicResources", "NodeDeclaredFeatures", "OracleLicences"),
        POLICY.filters().stream().map(Filter::name).toList());
  }

  @Test
  void the_readme_shows_exactly_this_sample() throws IOException {
    var source = Files.readString(Path.of("src/test/java/io/kubesched/policy/PolicyReadmeSampleTest.java"));
    var sample =
        between(source, "  // README-BEGIN\n", "  // README-END\n")
            .lines()
            .map(line -> line.startsWith("  ") ? line.substring(2) : line)
            .collect(Collectors.joining("\n", "", "\n"));
    var readme = Files.readString(Path.of("../README.md"));
    var shown = between(readme, "<!-- sample: PolicyReadmeSampleTest -->\n```java\n", "```\n");
    assertEquals(sample, shown, "README.md's policy sample differs from PolicyReadmeSampleTest");
  }

  /** The text between the first {@code start} and the next {@code end}; also used by {@link TestingPageSampleTest}. */
  static String between(String text, String start, String end) {
    int from = text.indexOf(start);
    int to = text.indexOf(end, from + start.length());
    if (from < 0 || to < 0) {
      throw new AssertionError("markers not found: " + start.strip());
    }
    return text.substring(from + start.length(), to);
  }
}
