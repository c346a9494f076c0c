package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterData;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodDisruptionBudget;
import io.kubesched.api.WorkloadSelector.Kind;
import io.kubesched.api.WorkloadSelector;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClusterDataCacheTest {

  private static final WorkloadSelector WEB =
      new WorkloadSelector(Kind.SERVICE, "shop", "web", LabelSelector.of(Map.of("app", "web")));

  private final ClusterDataCache cache =
      new ClusterDataCache(Set.of(ClusterData.NAMESPACES, ClusterData.SERVICES));

  @Test
  void a_snapshot_carries_the_namespaces_labels_and_the_workloads() {
    cache.putNamespace("shop", Map.of("team", "a"));
    cache.putWorkload("Service/shop/web", WEB);

    var snapshot = cache.snapshot(List.of());

    assertEquals(Map.of("team", "a"), snapshot.namespaceLabels("shop"));
    assertEquals(List.of(WEB), snapshot.workloadsIn("shop"));
  }

  @Test
  void the_same_map_and_list_serve_every_decision_until_something_changes() {
    cache.putNamespace("shop", Map.of("team", "a"));
    cache.putWorkload("Service/shop/web", WEB);
    var namespaces = cache.namespaces();
    var workloads = cache.workloads();

    assertFalse(cache.putNamespace("shop", Map.of("team", "a")), "same labels: no news");
    cache.putWorkload("Service/shop/web", new WorkloadSelector(Kind.SERVICE, "shop", "web", WEB.selector()));

    assertSame(namespaces, cache.namespaces());
    assertSame(workloads, cache.workloads());

    assertTrue(cache.putNamespace("shop", Map.of("team", "b")));
    cache.putWorkload("Service/shop/web", null);

    assertNotSame(namespaces, cache.namespaces());
    assertEquals(Map.of("shop", Map.of("team", "b")), cache.namespaces());
    assertEquals(List.of(), cache.workloads(), "a Service without a selector is forgotten");
  }

  @Test
  void a_new_namespace_is_news_and_a_deleted_one_is_forgotten() {
    assertTrue(cache.putNamespace("shop", Map.of()));
    cache.removeNamespace("shop");
    cache.removeWorkload("Service/shop/unknown");

    assertEquals(Map.of(), cache.namespaces());
  }

  @Test
  void a_policy_that_reads_nothing_gets_the_nodes_alone() {
    var nothing = new ClusterDataCache(Set.of());
    var node = NodeInfo.builder("n1").build();

    var snapshot = nothing.snapshot(List.of(node));

    assertEquals(List.of(node), snapshot.nodes());
    assertEquals(Map.of(), snapshot.namespaces());
    assertEquals(List.of(), snapshot.workloads());
  }

  @Test
  void a_snapshot_carries_the_storage_and_is_derived_without_a_copy_while_it_is_the_same() {
    var storage = new StorageCache();
    storage.putStorageClass(new io.kubesched.api.StorageClass("fast", "csi.example.com", true, List.of()));
    var reads = new ClusterDataCache(Set.of(ClusterData.STORAGE_CLASSES));
    var node = NodeInfo.builder("node-a").build();

    var first = reads.snapshot(List.of(node), storage.storage());
    var second = reads.snapshot(List.of(node), storage.storage());

    assertSame(storage.storage(), first.storage());
    assertSame(first.storage(), second.storage());
    assertTrue(second.storage().storageClass("fast").isPresent());

    storage.removeStorageClass("fast");
    var third = reads.snapshot(List.of(node), storage.storage());

    assertNotSame(first.storage(), third.storage());
    assertTrue(third.storage().storageClass("fast").isEmpty());
    assertSame(io.kubesched.api.Storage.empty(), reads.snapshot(List.of(node)).storage());
  }

  @Test
  void disruption_budgets_reach_the_snapshot_only_where_the_policy_reads_them() {
    var budget = new PodDisruptionBudget("shop", "web", LabelSelector.of(Map.of("app", "web")), 1, Set.of());
    var reads = new ClusterDataCache(Set.of(ClusterData.POD_DISRUPTION_BUDGETS));
    reads.putDisruptionBudget("shop/web", budget);
    cache.putDisruptionBudget("shop/web", budget);

    var first = reads.snapshot(List.of());
    assertEquals(List.of(budget), first.disruptionBudgets());
    assertEquals(List.of(), cache.snapshot(List.of()).disruptionBudgets());
    reads.putDisruptionBudget("shop/web", budget);
    assertSame(first.disruptionBudgets(), reads.snapshot(List.of()).disruptionBudgets(), "unchanged: same list");

    reads.removeDisruptionBudget("shop/web");
    assertEquals(List.of(), reads.snapshot(List.of()).disruptionBudgets());
  }

  @Test
  void nominations_reach_the_snapshot_and_the_next_one_is_derived_from_it() {
    var node = NodeInfo.builder("n1").build();
    var nominated = io.kubesched.api.PodInfo.builder("ns", "p").nominatedNodeName("n1").build();
    var nominations = Nominations.of(List.of(nominated));

    var first = cache.snapshot(List.of(node), io.kubesched.api.Storage.empty(), nominations);
    var same = cache.snapshot(List.of(node), io.kubesched.api.Storage.empty(), nominations);

    assertSame(nominations, first.nominations());
    assertSame(nominations, same.nominations(), "unchanged: carried, not derived again");
    assertEquals(Nominations.NONE, cache.snapshot(List.of(node)).nominations());
  }
}
