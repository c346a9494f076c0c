package io.kubesched.facade;

import static io.kubesched.facade.FakeClusterFixture.SCHEDULER;
import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.nodeOf;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The README's embedding sample compiles (it is here), works, and is the same text as in the README. */
class ReadmeSampleTest {

  // README-BEGIN
  static final FinderFunc MOST_FREE_CPU =
      (pod, nodes) -> {
        Map<String, List<String>> rejected = new HashMap<>();
        NodeInfo best = null;
        for (NodeInfo node : nodes) {
          long free = node.allocatable().milliCpu() - node.requested().milliCpu();
          if (free < pod.requests().milliCpu()) {
            rejected.put(node.name(), List.of("Insufficient cpu"));
          } else if (best == null
              || free > best.allocatable().milliCpu() - best.requested().milliCpu()) {
            best = node;
          }
        }
        return best != null ? Decision.bind(best.name()) : Decision.unschedulable(rejected);
      };

  static void schedule(Options options) throws InterruptedException {
    try (Client client = Client.create(options);
        Controller controller = client.newPodController(MOST_FREE_CPU)) {
      Runtime.getRuntime().addShutdownHook(new Thread(controller::close));
      controller.run(); // until closed
    }
  }
  // README-END

  @Test
  void the_sample_policy_places_a_pod_on_the_node_with_the_most_free_cpu() {
    try (var client = Client.create(FakeClusterFixture.fakeOptions());
        var controller = client.newPodController(MOST_FREE_CPU)) {
      var kube = client.kubernetesClient();
      create(kube, node("small", "2", "4Gi", "110"));
      create(kube, node("large", "8", "4Gi", "110"));
      controller.start();
      create(kube, pod("web", SCHEDULER, "1", "64Mi"));
      eventually(Duration.ofSeconds(30), "the pod is bound", () -> !nodeOf(kube, "web").isEmpty());
      assertEquals("large", nodeOf(kube, "web"));
    }
  }

  @Test
  void the_readme_shows_exactly_this_sample() throws IOException {
    var source =
        Files.readString(Path.of("src/test/java/io/kubesched/facade/ReadmeSampleTest.java"));
    var sample =
        between(source, "  // README-BEGIN\n", "  // README-END\n")
            .lines()
            .map(line -> line.startsWith("  ") ? line.substring(2) : line)
            .collect(Collectors.joining("\n", "", "\n"));
    var readme = Files.readString(Path.of("../README.md"));
    var shown = between(readme, "<!-- sample: ReadmeSampleTest -->\n```java\n", "```\n");
    assertEquals(sample, shown, "README.md's embedding sample differs from ReadmeSampleTest");
  }

  private static String between(String text, String start, String end) {
    int from = text.indexOf(start);
    if (from < 0) {
      throw new AssertionError("marker not found: " + start.strip());
    }
    from += start.length();
    int to = text.indexOf(end, from);
    return text.substring(from, to);
  }
}
