package io.kubesched.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Assume;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

class DecisionProperties {

  @Property
  @Label("the message is kube-scheduler's FitError text for the same reasons")
  void messageMatchesKubeScheduler(
      @ForAll("reasonsByNode") Map<String, List<String>> reasonsByNode,
      @ForAll @IntRange(min = 0, max = 5) int nodesWithoutReasons) {
    int nodeCount = reasonsByNode.size() + nodesWithoutReasons;

    assertEquals(fitError(nodeCount, reasonsByNode), Decision.unschedulable(reasonsByNode).message(nodeCount));

    var all = reasonsByNode.values().stream().flatMap(List::stream).toList();
    Statistics.label("a reason is given more than once").collect(all.stream().distinct().count() < all.size());
    Statistics.label("a reason is given more than once").coverage(c -> c.check(true).percentage(p -> p > 30));
  }

  @Property
  @Label("the counts in the message add up to the number of reasons given")
  void countsAddUp(@ForAll("reasonsByNode") Map<String, List<String>> reasonsByNode) {
    Assume.that(!reasonsByNode.isEmpty());
    var message = Decision.unschedulable(reasonsByNode).message(reasonsByNode.size());
    int total = reasonsByNode.values().stream().mapToInt(List::size).sum();

    var prefix = "0/" + reasonsByNode.size() + " nodes are available:";
    assertTrue(message.startsWith(prefix), message);
    if (total == 0) {
      assertEquals(prefix, message);
      return;
    }
    assertTrue(message.endsWith("."), message);
    var body = message.substring(prefix.length() + 1, message.length() - 1);
    int sum = 0;
    for (var entry : body.split(", ")) {
      sum += Integer.parseInt(entry.substring(0, entry.indexOf(' ')));
    }
    assertEquals(total, sum);
  }

  /**
   * {@code FitError.Error()} of kube-scheduler, transcribed: count each reason over the nodes' statuses,
   * format {@code "%v %v"}, {@code sort.Strings} (byte order of UTF-8), join with {@code ", "}.
   */
  private static String fitError(int numAllNodes, Map<String, List<String>> reasonsByNode) {
    if (numAllNodes == 0) {
      return "no nodes available to schedule pods"; // schedulePod's ErrNoNodesAvailable
    }
    var reasons = new HashMap<String, Integer>();
    for (var status : reasonsByNode.values()) {
      for (var reason : status) {
        reasons.put(reason, reasons.getOrDefault(reason, 0) + 1);
      }
    }
    var reasonStrings = new ArrayList<String>();
    reasons.forEach((k, v) -> reasonStrings.add(v + " " + k));
    reasonStrings.sort(
        (a, b) -> Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
    var reasonMsg = "0/" + numAllNodes + " nodes are available:";
    if (!reasonStrings.isEmpty()) {
      reasonMsg += " " + String.join(", ", reasonStrings) + ".";
    }
    return reasonMsg;
  }

  @Provide
  Arbitrary<Map<String, List<String>>> reasonsByNode() {
    var reason =
        Arbitraries.oneOf(
            Arbitraries.of(
                "Insufficient cpu",
                "Insufficient memory",
                "Too many pods",
                "node(s) had untolerated taint(s)",
                "node(s) didn't match Pod's node affinity/selector",
                "node(s) were unschedulable"),
            Arbitraries.strings().withCharRange('a', 'z').withChars(' ', 'A', 'Z').ofMinLength(1).ofMaxLength(6));
    var nodeName = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(4);
    return Arbitraries.maps(nodeName, reason.list().ofMaxSize(3)).ofMaxSize(15);
  }
}
