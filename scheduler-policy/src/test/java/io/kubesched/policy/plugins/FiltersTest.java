package io.kubesched.policy.plugins;

import static io.kubesched.api.TaintEffect.NO_SCHEDULE;
import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.nodeNameIn;
import static io.kubesched.policy.plugins.FilterFixtures.nodeWith;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static io.kubesched.policy.plugins.FilterFixtures.podWithPorts;
import static io.kubesched.policy.plugins.FilterFixtures.podWithVolumes;
import static io.kubesched.policy.plugins.FilterFixtures.requests;
import static io.kubesched.policy.plugins.FilterFixtures.taint;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PodRuntime;
import io.kubesched.api.Resources;
import io.kubesched.api.Volume;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.plugins.nodeaffinity.NodeAffinityFilter;
import io.kubesched.policy.plugins.nodelabel.NodeLabelPresenceFilter;
import io.kubesched.policy.plugins.noderesources.NodeResourcesFitFilter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The factory of built-in filters, and the messages of their rejections. */
class FiltersTest {

  @Test
  void the_defaults_are_kube_schedulers_default_profile_filters_in_its_order() {
    assertEquals(
        List.of(
            "NodeName",
            "NodeUnschedulable",
            "TaintToleration",
            "NodeAffinity",
            "NodePorts",
            "NodeResourcesFit",
            "VolumeRestrictions",
            "NodeVolumeLimits",
            "VolumeBinding",
            "VolumeZone",
            "PodTopologySpread",
            "InterPodAffinity",
            "DynamicResources",
            "NodeDeclaredFeatures"),
        Filters.defaults().stream().map(Filter::name).toList());
  }

  @Test
  void the_defaults_are_immutable() {
    assertThrows(UnsupportedOperationException.class, () -> Filters.defaults().add(Filters.nodePorts()));
  }

  @Test
  void the_factory_passes_the_arguments_on() {
    // The factories return Filter; the plugins' classes are reachable here, on the class path.
    var fit = (NodeResourcesFitFilter) Filters.resourcesFit(List.of("example.com/a"), List.of("vendor.io"));
    var presence = (NodeLabelPresenceFilter) Filters.labelPresence(List.of("zone"), false);
    var affinity = (NodeAffinityFilter) Filters.nodeAffinity(List.of(FilterFixtures.term(List.of(), List.of())));

    assertEquals(Set.of("example.com/a"), fit.ignoredResources());
    assertEquals(Set.of("vendor.io"), fit.ignoredResourceGroups());
    assertEquals(List.of("zone"), presence.labels());
    assertEquals(false, presence.presence());
    assertEquals(1, affinity.addedRequired().size());
  }

  @Test
  void the_factory_validates_the_arguments() {
    assertThrows(IllegalArgumentException.class, () -> Filters.labelPresence(List.of(), true));
    assertThrows(IllegalArgumentException.class, () -> Filters.resourcesFit(List.of(), List.of("a/b")));
  }

  /**
   * For each filter, a node it rejects, and the exact text kube-scheduler gives for it (from the plugin's
   * source in Kubernetes 1.37, or the former predicate's for {@code CheckNodeLabelPresence}).
   */
  static Stream<Arguments> rejections() {
    PodInfo plain = pod().build();
    return Stream.of(
        argumentSet(
            "NodeName",
            Filters.nodeName(),
            pod().nodeName("a").build(),
            node("b").build(),
            List.of("node(s) didn't match the requested node name")),
        argumentSet(
            "NodeUnschedulable",
            Filters.nodeUnschedulable(),
            plain,
            node("n").unschedulable(true).build(),
            List.of("node(s) were unschedulable")),
        argumentSet(
            "TaintToleration",
            Filters.taintToleration(),
            plain,
            node("n").taints(List.of(taint("k", "v", NO_SCHEDULE))).build(),
            List.of("node(s) had untolerated taint(s)")),
        argumentSet(
            "NodeAffinity",
            Filters.nodeAffinity(),
            pod().nodeSelector(Map.of("k", "v")).build(),
            node("n").build(),
            List.of("node(s) didn't match Pod's node affinity/selector")),
        argumentSet(
            "NodeAffinity (added affinity)",
            Filters.nodeAffinity(List.of(FilterFixtures.term(List.of(), List.of(nodeNameIn("x"))))),
            plain,
            node("n").build(),
            List.of("node(s) didn't match scheduler-enforced node affinity")),
        argumentSet(
            "NodePorts",
            Filters.nodePorts(),
            podWithPorts("TCP/0.0.0.0/80"),
            nodeWith(podWithPorts("TCP/1.2.3.4/80")),
            List.of("node(s) didn't have free ports for the requested pod ports")),
        argumentSet(
            "NodeResourcesFit",
            Filters.resourcesFit(),
            pod().requests(requests(2, 2, 0, Map.of("example.com/gpu", 1L))).build(),
            node("n").allocatable(new Resources(1, 1, 0, 0, Map.of())).build(),
            List.of(
                "Too many pods", "Insufficient cpu", "Insufficient memory", "Insufficient example.com/gpu")),
        argumentSet(
            "VolumeRestrictions",
            Filters.volumeRestrictions(),
            podWithVolumes(new Volume.AwsElasticBlockStore("v", true)),
            nodeWith(podWithVolumes(new Volume.AwsElasticBlockStore("v", true))),
            List.of("node(s) had no available disk")),
        argumentSet(
            "NodeDeclaredFeatures",
            Filters.nodeDeclaredFeatures(),
            pod().runtime(new PodRuntime(true, false, Set.of(), false)).build(),
            node("n").declaredFeatures(List.of("VolumeBindMountOptions")).build(),
            List.of("node(s) didn't match Pod's required features")),
        argumentSet(
            "CheckNodeLabelPresence",
            Filters.labelPresence(List.of("retiring"), false),
            plain,
            node("n").labels(Map.of("retiring", "2030-01-01")).build(),
            List.of("node(s) didn't have the requested labels")));
  }

  @ParameterizedTest
  @MethodSource("rejections")
  void a_rejections_messages_are_kube_schedulers_text(
      Filter filter, PodInfo pod, NodeInfo node, List<String> messages) {
    var result = assertInstanceOf(FilterResult.Rejected.class, filter.filter(pod, node));

    assertEquals(messages, result.reasons().stream().map(Reason::message).toList());
  }
}
