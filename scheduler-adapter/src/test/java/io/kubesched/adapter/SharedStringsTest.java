package io.kubesched.adapter;

import static io.kubesched.adapter.Fixtures.node;
import static io.kubesched.adapter.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.PodAntiAffinity;
import io.fabric8.kubernetes.api.model.PodAntiAffinityBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Equal namespaces, labels and selector values read from separate objects come out as one instance (what
 * {@link SharedStrings} is for: the filters' walks over every pod compare them by reference first).
 */
class SharedStringsTest {

  /** A string equal to {@code value} but not the same instance, as two JSON documents give. */
  private static String fresh(String value) {
    return new String(value.toCharArray());
  }

  @Test
  void equal_namespaces_and_labels_of_two_pods_are_one_instance() {
    var first = PodAdapter.toPodInfo(pod(fresh("shop"), "a").label(fresh("app"), fresh("cart")).build());
    var second = PodAdapter.toPodInfo(pod(fresh("shop"), "b").label(fresh("app"), fresh("cart")).build());
    assertNotSame(fresh("shop"), fresh("shop"));
    assertSame(first.namespace(), second.namespace());
    var firstLabel = first.labels().entrySet().iterator().next();
    var secondLabel = second.labels().entrySet().iterator().next();
    assertSame(firstLabel.getKey(), secondLabel.getKey());
    assertSame(firstLabel.getValue(), secondLabel.getValue());
  }

  @Test
  void equal_label_maps_of_two_pods_are_one_map_and_unequal_ones_are_not() {
    var first = PodAdapter.toPodInfo(pod("shop", "a").label(fresh("app"), fresh("cart")).label("tier", "web").build());
    var second =
        PodAdapter.toPodInfo(pod("shop", "b").label(fresh("tier"), fresh("web")).label("app", "cart").build());
    var other = PodAdapter.toPodInfo(pod("shop", "c").label("app", "cart").label("tier", "db").build());
    assertSame(first.labels(), second.labels());
    assertEquals(Map.of("app", "cart", "tier", "web"), first.labels());
    assertNotSame(first.labels(), other.labels());
    assertEquals(Map.of("app", "cart", "tier", "db"), other.labels());
  }

  @Test
  void equal_pod_anti_affinity_terms_of_two_pods_are_one_term() {
    var first = PodAdapter.toPodInfo(pod("shop", "a").podAntiAffinity(antiAffinity(fresh("web"))).build());
    var second = PodAdapter.toPodInfo(pod("shop", "b").podAntiAffinity(antiAffinity(fresh("web"))).build());
    var other = PodAdapter.toPodInfo(pod("shop", "c").podAntiAffinity(antiAffinity("db")).build());
    var term = first.podAntiAffinity().required().get(0);
    assertSame(term, second.podAntiAffinity().required().get(0));
    assertEquals(Map.of("app", "web"), term.labelSelector().matchLabels());
    assertNotSame(term, other.podAntiAffinity().required().get(0));
    assertEquals(Map.of("app", "db"), other.podAntiAffinity().required().get(0).labelSelector().matchLabels());
  }

  private static PodAntiAffinity antiAffinity(String app) {
    return new PodAntiAffinityBuilder()
        .addNewRequiredDuringSchedulingIgnoredDuringExecution()
        .withNewLabelSelector()
        .withMatchLabels(Map.of(fresh("app"), app))
        .endLabelSelector()
        .withTopologyKey(fresh("kubernetes.io/hostname"))
        .endRequiredDuringSchedulingIgnoredDuringExecution()
        .build();
  }

  @Test
  void a_selector_values_and_a_nodes_labels_are_the_pods_instances() {
    var pod = PodAdapter.toPodInfo(pod(fresh("shop"), "a").label(fresh("app"), fresh("cart")).build());
    var selector =
        LabelSelectors.read(
            new LabelSelectorBuilder()
                .withMatchLabels(Map.of(fresh("app"), fresh("cart")))
                .withMatchExpressions(
                    new LabelSelectorRequirementBuilder()
                        .withKey(fresh("app"))
                        .withOperator("In")
                        .withValues(List.of(fresh("cart")))
                        .build())
                .build(),
            "pod shop/a",
            "spec.affinity");
    var podValue = pod.labels().get("app");
    assertSame(podValue, selector.matchLabels().get("app"));
    assertSame(podValue, selector.matchExpressions().get(0).values().get(0));
    var node = NodeAdapter.toNodeInfo(node("n1").label(fresh("zone"), fresh("cart")).build(), List.of());
    assertSame(podValue, node.labels().get("zone"));
    assertEquals(Map.of("zone", "cart"), node.labels());
  }
}
