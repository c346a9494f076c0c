package io.kubesched.policy.plugins.nodeports;

import static io.kubesched.policy.plugins.FilterFixtures.assertOutcome;
import static io.kubesched.policy.plugins.FilterFixtures.nodeWith;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static io.kubesched.policy.plugins.FilterFixtures.podWithPorts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.HostPort;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.plugins.FilterFixtures;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kube-scheduler's {@code nodeports/node_ports_test.go} ({@code TestNodePorts}), and edge cases.
 * A port without host address or protocol is written here as the adapter hands it over: {@code 0.0.0.0} and
 * {@code TCP}, as kube-scheduler reads them.
 */
class NodePortsFilterTest {

  private static final String ERR_REASON = "node(s) didn't have free ports for the requested pod ports";
  private static final Outcome CONFLICT = Outcome.unschedulable(ERR_REASON);

  private final NodePortsFilter filter = new NodePortsFilter();

  static Stream<Arguments> kubeCases() {
    return Stream.of(
        argumentSet("skip filter", pod().build(), nodeWith(), Outcome.FIT),
        argumentSet(
            "other port",
            podWithPorts("UDP/127.0.0.1/8080"),
            nodeWith(podWithPorts("UDP/127.0.0.1/9090")),
            Outcome.FIT),
        argumentSet(
            "same udp port",
            podWithPorts("UDP/127.0.0.1/8080"),
            nodeWith(podWithPorts("UDP/127.0.0.1/8080")),
            CONFLICT),
        argumentSet(
            "same tcp port",
            podWithPorts("TCP/127.0.0.1/8080"),
            nodeWith(podWithPorts("TCP/127.0.0.1/8080")),
            CONFLICT),
        argumentSet(
            "different host ip",
            podWithPorts("TCP/127.0.0.1/8080"),
            nodeWith(podWithPorts("TCP/127.0.0.2/8080")),
            Outcome.FIT),
        argumentSet(
            "different protocol",
            podWithPorts("UDP/127.0.0.1/8080"),
            nodeWith(podWithPorts("TCP/127.0.0.1/8080")),
            Outcome.FIT),
        argumentSet(
            "second udp port conflict",
            podWithPorts("UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"),
            nodeWith(podWithPorts("UDP/127.0.0.1/8080")),
            CONFLICT),
        argumentSet(
            "first tcp port conflict",
            podWithPorts("TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"),
            nodeWith(podWithPorts("TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081")),
            CONFLICT),
        argumentSet(
            "first tcp port conflict due to 0.0.0.0 hostIP",
            podWithPorts("TCP/0.0.0.0/8001"),
            nodeWith(podWithPorts("TCP/127.0.0.1/8001")),
            CONFLICT),
        argumentSet(
            "TCP hostPort conflict due to 0.0.0.0 hostIP",
            podWithPorts("TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"),
            nodeWith(podWithPorts("TCP/127.0.0.1/8001")),
            CONFLICT),
        argumentSet(
            "second tcp port conflict to 0.0.0.0 hostIP",
            podWithPorts("TCP/127.0.0.1/8001"),
            nodeWith(podWithPorts("TCP/0.0.0.0/8001")),
            CONFLICT),
        argumentSet(
            "second different protocol",
            podWithPorts("UDP/127.0.0.1/8001"),
            nodeWith(podWithPorts("TCP/0.0.0.0/8001")),
            Outcome.FIT),
        argumentSet(
            "UDP hostPort conflict due to 0.0.0.0 hostIP",
            podWithPorts("UDP/127.0.0.1/8001"),
            nodeWith(podWithPorts("TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001")),
            CONFLICT),
        // A non-sidecar init container's host port is not the pod's: the adapter does not hand it over.
        argumentSet(
            "non-sidecar initContainer using hostPort",
            pod().build(),
            nodeWith(podWithPorts("TCP/0.0.0.0/8001")),
            Outcome.FIT),
        argumentSet(
            "TCP hostPort conflict from sidecar initContainer",
            podWithPorts("TCP/0.0.0.0/8001"),
            nodeWith(podWithPorts("TCP/0.0.0.0/8001")),
            CONFLICT));
  }

  @ParameterizedTest
  @MethodSource("kubeCases")
  void kube_scheduler_case(PodInfo pod, NodeInfo node, Outcome expected) {
    assertOutcome(expected, filter.filter(pod, node));
  }

  @Test
  void a_rejection_names_the_first_wanted_port_and_the_port_it_conflicts_with() {
    var result =
        filter.filter(
            podWithPorts("TCP/127.0.0.1/80", "UDP/10.0.0.1/53"),
            nodeWith(podWithPorts("UDP/0.0.0.0/53"), podWithPorts("TCP/127.0.0.1/80")));

    assertEquals(
        List.of(
            new Reason.HostPortConflict(
                new HostPort("TCP", "127.0.0.1", 80), new HostPort("TCP", "127.0.0.1", 80))),
        FilterFixtures.reasons(result));
  }

  @Test
  void ports_of_every_pod_on_the_node_count() {
    assertOutcome(
        CONFLICT,
        filter.filter(
            podWithPorts("TCP/127.0.0.1/80"),
            nodeWith(podWithPorts("TCP/127.0.0.1/81"), pod().build(), podWithPorts("TCP/127.0.0.1/80"))));
  }

  @Test
  void a_pod_repeating_a_port_among_its_own_containers_fits_an_empty_node() {
    assertOutcome(Outcome.FIT, filter.filter(podWithPorts("TCP/0.0.0.0/80", "TCP/0.0.0.0/80"), nodeWith()));
  }

  @Test
  void the_ipv6_any_address_is_not_a_wildcard() {
    assertOutcome(
        Outcome.FIT, filter.filter(podWithPorts("TCP/::/80"), nodeWith(podWithPorts("TCP/127.0.0.1/80"))));
  }

  @Test
  void addresses_are_compared_as_text() {
    assertOutcome(
        Outcome.FIT,
        filter.filter(podWithPorts("TCP/127.0.0.1/80"), nodeWith(podWithPorts("TCP/127.000.000.001/80"))));
  }

  @Test
  void protocols_are_compared_exactly() {
    assertOutcome(
        Outcome.FIT,
        filter.filter(podWithPorts("SCTP/0.0.0.0/80"), nodeWith(podWithPorts("TCP/0.0.0.0/80"))));
  }

  @Test
  void the_name_is_kube_schedulers_plugin_name() {
    assertEquals("NodePorts", filter.name());
  }
}
