package io.kubesched.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.kubesched.api.Decision;
import org.junit.jupiter.api.Test;

/** The DRA benchmark measures the path its Javadoc names: the one free h100 of a node is allocated. */
class DynamicResourcesBenchmarkTest {

  @Test
  void the_pod_gets_the_one_free_h100_of_the_node_chosen() {
    var state = new DynamicResourcesBenchmark.ClusterState();
    state.nodes = 50;
    state.setUp();

    var bind = assertInstanceOf(Decision.Bind.class, new DynamicResourcesBenchmark().podWithAClaim(state));

    var allocation = bind.claimAllocations().get(0).allocation();
    assertEquals(1, allocation.devices().size());
    var device = allocation.devices().get(0);
    assertEquals("gpu-7", device.device(), "gpu-1, 3 and 5 are taken, the a100s too small");
    assertEquals(bind.nodeName(), device.pool());
  }

  @Test
  void with_claims_changing_every_decision_allocates_the_same() {
    var state = new DynamicResourcesBenchmark.ClusterState();
    state.nodes = 50;
    state.setUp();
    var benchmark = new DynamicResourcesBenchmark();

    for (int i = 0; i < 3; i++) {
      var bind = assertInstanceOf(Decision.Bind.class, benchmark.podWithAClaimClaimsChanging(state));
      assertEquals("gpu-7", bind.claimAllocations().get(0).allocation().devices().get(0).device());
    }
  }
}
