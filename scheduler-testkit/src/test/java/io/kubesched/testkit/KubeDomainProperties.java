package io.kubesched.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.HashSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.domains.Domain;
import net.jqwik.api.domains.DomainContext;

/** Parameters resolved by type through {@link KubeDomain}, as a user writes them. */
@Domain(KubeDomain.class)
class KubeDomainProperties {

  @Property(tries = 100)
  @Label("a pod parameter is a pending pod")
  void podsArePending(@ForAll PodInfo pod) {
    assertEquals("", pod.nodeName());
  }

  @Property(tries = 100)
  @Label("a node parameter carries pods bound to it")
  void nodesCarryTheirPods(@ForAll NodeInfo node) {
    assertTrue(node.pods().stream().allMatch(pod -> pod.nodeName().equals(node.name())), node::toString);
  }

  @Property(tries = 100)
  @Label("a cluster parameter has unique node names")
  void clustersHaveUniqueNames(@ForAll Cluster cluster) {
    assertEquals(cluster.size(), new HashSet<>(cluster.nodeNames()).size());
  }

  @Property(tries = 100)
  @Label("a snapshot parameter labels every node with its hostname")
  void snapshotsHaveTopology(@ForAll ClusterSnapshot snapshot) {
    assertTrue(
        snapshot.nodes().stream().allMatch(n -> n.name().equals(n.labels().get(KubeArbitraries.TOPOLOGY_HOSTNAME))),
        () -> snapshot.nodes().toString());
  }

  @Property(tries = 100)
  @Label("a snapshot scenario parameter has a pending pod")
  void snapshotScenariosArePending(@ForAll SnapshotScenario scenario) {
    assertEquals("", scenario.pod().nodeName());
    assertEquals(scenario.snapshot().nodes(), scenario.nodes());
  }

  @Property(tries = 100)
  @Domain(DomainContext.Global.class)
  @Label("a scenario parameter sits beside jqwik's own types when the global domain is added")
  void scenariosWithGlobalTypes(@ForAll Scenario scenario, @ForAll long seed) {
    assertEquals("", scenario.pod().nodeName());
    assertEquals(scenario.cluster().nodes(), scenario.nodes());
  }
}
