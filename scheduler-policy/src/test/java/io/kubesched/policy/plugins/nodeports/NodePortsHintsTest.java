package io.kubesched.policy.plugins.nodeports;

import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static io.kubesched.policy.plugins.FilterFixtures.ports;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.PodInfo;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube-scheduler's {@code nodeports/node_ports_test.go} hint table ({@code Test_isSchedulableAfterAssignedPodDeleted})
 * under kube's case names; its case with an object of the wrong type is left out (the Java types cannot).
 */
class NodePortsHintsTest {

  private final NodePortsFilter filter = new NodePortsFilter();

  static Stream<Arguments> kubeCases() {
    var podWithHostPort = pod().hostPorts(ports("TCP/0.0.0.0/8080")).build();
    return Stream.of(
        argumentSet("skip-queue-on-unscheduled", podWithHostPort, pod("other").build(), false),
        argumentSet("skip-queue-on-non-hostport", podWithHostPort, pod("other").nodeName("fake-node").build(), false),
        argumentSet("skip-queue-on-unrelated-hostport", podWithHostPort,
            pod("other").nodeName("fake-node").hostPorts(ports("TCP/0.0.0.0/8081")).build(), false),
        argumentSet("queue-on-released-hostport", podWithHostPort,
            pod("other").nodeName("fake-node").hostPorts(ports("TCP/0.0.0.0/8080")).build(), true));
  }

  @ParameterizedTest
  @MethodSource("kubeCases")
  void assigned_pod_deleted(PodInfo pod, PodInfo deleted, boolean queue) {
    assertEquals(queue, filter.isSchedulableAfter(pod, new ClusterUpdate.AssignedPodDeleted(deleted)));
  }

  @Test
  void any_node_added_may_help_as_kube_registers_it_without_a_hint() {
    assertTrue(filter.isSchedulableAfter(
        pod().hostPorts(ports("TCP/0.0.0.0/8080")).build(), new ClusterUpdate.NodeAdded(node("n").build())));
  }
}
