package io.kubesched.policy.plugins.dynamicresources;

import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.ALLOCATED_CLAIM;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.ALLOCATION_RESULT2;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.CLAIM_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.CLASS_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.DEVICE_CLASS;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.NODE2_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.NODE_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.PENDING_CLAIM2;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.POD_OWNER;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.POD_WITH_CLAIM_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.WORKER_NODE;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.WORKER_NODE2;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.allocationOf;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.claim;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.device;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.requirements;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.resources;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.slice;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.snapshot;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.ResourceClaim;
import io.kubesched.policy.framework.ScoreNormalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * kube's {@code Test_computesScore} and {@code TestNormalizeScore} (dynamicresources_test.go) under kube's names,
 * and TestPlugin's prioritized-list scoring through the prepared scorer.
 */
class DynamicResourcesScorerTest {

  /** kube's {@code NamedRequestWithPrioritizedList(name, SubRequest("subreq-1", class, 1), …)} with n alternatives. */
  private static DeviceRequest alternatives(String name, int n) {
    return new DeviceRequest(name, null, IntStream.rangeClosed(1, n)
        .mapToObj(i -> new DeviceRequest.SubRequest("subreq-" + i, requirements(CLASS_NAME, 1)))
        .toList());
  }

  private static ResourceClaim claimOf(DeviceRequest... requests) {
    return claim("c", null, requests);
  }

  private static AllocationResult allocated(String... requests) {
    var devices = new ArrayList<io.kubesched.api.DeviceAllocation>();
    for (var request : requests) {
      devices.add(device(request, NODE_NAME, "d-" + devices.size()));
    }
    return allocationOf(NODE_NAME, devices);
  }

  @Test
  @DisplayName("more-claims-than-allocations")
  void moreClaimsThanAllocations() {
    var claims = List.of(claimOf(alternatives("req-1", 1)), claimOf(alternatives("req-2", 1)));
    var error = assertThrows(IllegalStateException.class, () -> DynamicResourcesScorer.computeScore(claims, List.of()));
    assertEquals("number of allocations 0 is smaller than number of claims needing allocation", error.getMessage());
  }

  @Test
  @DisplayName("mix-of-allocated-and-unallocated-claims")
  void mixOfAllocatedAndUnallocatedClaims() {
    assertEquals(0, DynamicResourcesScorer.computeScore(List.of(ALLOCATED_CLAIM, PENDING_CLAIM2), List.of(ALLOCATION_RESULT2)));
  }

  @Test
  @DisplayName("single-request-only-subrequest-allocated")
  void singleRequestOnlySubrequestAllocated() {
    assertEquals(8, DynamicResourcesScorer.computeScore(
        List.of(claimOf(alternatives("req-1", 1))), List.of(allocated("req-1/subreq-1"))));
  }

  @Test
  @DisplayName("single-request-last-subrequest-allocated")
  void singleRequestLastSubrequestAllocated() {
    assertEquals(1, DynamicResourcesScorer.computeScore(
        List.of(claimOf(alternatives("req-1", 8))), List.of(allocated("req-1/subreq-8"))));
  }

  @Test
  @DisplayName("multiple-requests-with-middle-subrequests-allocated")
  void multipleRequestsWithMiddleSubrequestsAllocated() {
    assertEquals(9, DynamicResourcesScorer.computeScore(
        List.of(claimOf(alternatives("req-1", 4), alternatives("req-2", 5))),
        List.of(allocated("req-1/subreq-4", "req-2/subreq-5"))));
  }

  @Test
  @DisplayName("multiple-requests-with-top-subrequests-allocated")
  void multipleRequestsWithTopSubrequestsAllocated() {
    assertEquals(9, DynamicResourcesScorer.computeScore(
        List.of(claimOf(alternatives("req-1", 8), alternatives("req-2", 1))),
        List.of(allocated("req-1/subreq-8", "req-2/subreq-1"))));
  }

  @Test
  @DisplayName("multiple-claims-with-last-subrequests-allocated")
  void multipleClaimsWithLastSubrequestsAllocated() {
    assertEquals(2, DynamicResourcesScorer.computeScore(
        List.of(claimOf(alternatives("req-1", 8)), claimOf(alternatives("req-2", 8))),
        List.of(allocated("req-1/subreq-8"), allocated("req-2/subreq-8"))));
  }

  @Test
  @DisplayName("multiple-claims-with-top-subrequests-allocated")
  void multipleClaimsWithTopSubrequestsAllocated() {
    assertEquals(16, DynamicResourcesScorer.computeScore(
        List.of(claimOf(alternatives("req-1", 8)), claimOf(alternatives("req-2", 8))),
        List.of(allocated("req-1/subreq-1"), allocated("req-2/subreq-1"))));
  }

  @Test
  @DisplayName("an already allocated claim counts with its own allocation")
  void allocatedClaimCounts() {
    var done = claimOf(alternatives("req-1", 3)).withAllocation(allocated("req-1/subreq-2"));
    assertEquals(7, DynamicResourcesScorer.computeScore(List.of(done), List.of()));
  }

  private static long[] normalized(long... scores) {
    var nodes = new ArrayList<NodeInfo>();
    for (int i = 0; i < scores.length; i++) {
      nodes.add(DraFixtures.node("node-" + i));
    }
    var copy = scores.clone();
    new DynamicResourcesScorer().normalize(POD_WITH_CLAIM_NAME, nodes, copy);
    return copy;
  }

  @Test
  @DisplayName("TestNormalizeScore: empty, single-score, all-same, different-scores, zero")
  void normalizeScore() {
    assertArrayEquals(new long[0], normalized());
    assertArrayEquals(new long[] {100}, normalized(42));
    assertArrayEquals(new long[] {100, 100}, normalized(8, 8));
    assertArrayEquals(new long[] {100, 87}, normalized(8, 7));
    assertArrayEquals(new long[] {0, 0}, normalized(0, 0));
  }

  @Test
  @DisplayName("single-claim-prioritized-list-scoring: the node that gets the first alternative scores 8, 100 once normalised")
  void singleClaimPrioritizedListScoring() {
    // kube tells the nodes apart with a CEL selector on subreq-1; here subreq-1 asks for two devices, which only the
    // first node has.
    var pending = claim(CLAIM_NAME, POD_OWNER, new DeviceRequest("req-1", null, List.of(
        new DeviceRequest.SubRequest("subreq-1", requirements(CLASS_NAME, 2)),
        new DeviceRequest.SubRequest("subreq-2", requirements(CLASS_NAME, 1)))));
    var nodes = List.of(WORKER_NODE, WORKER_NODE2);
    var cluster = snapshot(nodes, resources(
        List.of(slice(NODE_NAME, "instance-1", "instance-2"), slice(NODE2_NAME, "instance-1")),
        List.of(DEVICE_CLASS), List.of(pending)));

    var prepared = new DynamicResourcesScorer(new FirstFreeDevices()).prepare(POD_WITH_CLAIM_NAME, nodes, cluster);
    var scores = new long[] {prepared.score(POD_WITH_CLAIM_NAME, WORKER_NODE),
        prepared.score(POD_WITH_CLAIM_NAME, WORKER_NODE2)};
    assertArrayEquals(new long[] {8, 7}, scores);
    ((ScoreNormalizer) prepared).normalize(POD_WITH_CLAIM_NAME, nodes, scores);
    assertArrayEquals(new long[] {100, 87}, scores);
  }

  @Test
  @DisplayName("a pod without prioritized lists is not allocated again for the score")
  void noPrioritizedListNoAllocation() {
    var allocator = new FirstFreeDevices();
    var scorer = new DynamicResourcesScorer(allocator);
    var cluster = snapshot(List.of(WORKER_NODE), resources(List.of(slice(NODE_NAME, "instance-1")),
        List.of(DEVICE_CLASS), List.of(DraFixtures.PENDING_CLAIM)));

    var prepared = scorer.prepare(POD_WITH_CLAIM_NAME, List.of(WORKER_NODE), cluster);
    assertSame(scorer, prepared);
    assertEquals(0, prepared.score(POD_WITH_CLAIM_NAME, WORKER_NODE));
    assertEquals(0, allocator.calls.get());
  }
}
