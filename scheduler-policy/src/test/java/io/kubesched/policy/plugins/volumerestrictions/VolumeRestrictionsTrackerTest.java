package io.kubesched.policy.plugins.volumerestrictions;

import static io.kubesched.api.AccessMode.READ_WRITE_MANY;
import static io.kubesched.api.AccessMode.READ_WRITE_ONCE_POD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.AccessMode;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Volume;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PodTracking;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.plugins.FilterFixtures;
import io.kubesched.policy.plugins.StorageFixtures;
import io.kubesched.policy.plugins.volumerestrictions.VolumeRestrictionsFilter.ReadWriteOncePodConflict;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The VolumeRestrictions tracker (kube's {@code AddPod}/{@code RemovePod} of the {@code ReadWriteOncePod}
 * count; kube's {@code volume_restrictions_test.go} has no cases for them). Where kube's single count is wrong
 * (two users of one claim, a claim of the same name in another namespace), the tracker gives the verdict of the
 * snapshot without the pod, as {@link VolumeRestrictionsFilter} documents.
 */
class VolumeRestrictionsTrackerTest {

  private final VolumeRestrictionsFilter filter = new VolumeRestrictionsFilter();

  private static final List<PersistentVolumeClaim> CLAIMS = List.of(
      claim("default", "rwop-1", READ_WRITE_ONCE_POD),
      claim("default", "rwop-2", READ_WRITE_ONCE_POD),
      claim("default", "rwx", READ_WRITE_MANY),
      claim("other", "rwop-1", READ_WRITE_ONCE_POD));

  private static PersistentVolumeClaim claim(String namespace, String name, AccessMode mode) {
    return StorageFixtures.claim(namespace, name, "", "", Set.of(mode));
  }

  private static PodInfo pod(String namespace, String name, String... claims) {
    return PodInfo.builder(namespace, name).persistentVolumeClaims(List.of(claims)).build();
  }

  private PodTracking.Tracker track(PodInfo pod, NodeInfo... nodes) {
    var cluster = ClusterSnapshot.of(List.of(nodes))
        .withStorage(StorageFixtures.storage(CLAIMS, List.of(), List.of()));
    return assertInstanceOf(PodTracking.class, filter.prepare(pod, cluster)).track();
  }

  private static NodeInfo node(String name, PodInfo... pods) {
    var placed = new ArrayList<PodInfo>();
    for (var pod : pods) {
      placed.add(pod.toBuilder().nodeName(name).build());
    }
    return NodeInfo.builder(name).pods(placed).build();
  }

  private static List<String> conflicting(FilterResult result) {
    var rejected = assertInstanceOf(FilterResult.Rejected.class, result);
    return assertInstanceOf(ReadWriteOncePodConflict.class, rejected.reasons().get(0)).claims();
  }

  @Test
  @DisplayName("removing the user of the claim frees every node; adding it back takes them again")
  void removeAndAddTheUser() {
    var user = pod("default", "user", "rwop-1");
    var nodes = new NodeInfo[] {node("n1", user), node("n2")};
    var incoming = pod("default", "p", "rwop-1");
    var tracker = track(incoming, nodes);
    assertEquals(List.of("rwop-1"), conflicting(tracker.filter(incoming, nodes[1])));

    tracker.removePod(user, nodes[0]);
    assertTrue(tracker.filter(incoming, nodes[0]).fits());
    assertTrue(tracker.filter(incoming, nodes[1]).fits());

    tracker.addPod(user, nodes[0]);
    assertEquals(List.of("rwop-1"), conflicting(tracker.filter(incoming, nodes[1])));
  }

  @Test
  @DisplayName("with two claims in use, removing one user leaves the other claim's conflict")
  void twoClaims() {
    var first = pod("default", "first", "rwop-1");
    var second = pod("default", "second", "rwop-2", "rwx");
    var nodes = new NodeInfo[] {node("n1", first, second)};
    var incoming = pod("default", "p", "rwop-1", "rwop-2");
    var tracker = track(incoming, nodes);
    assertEquals(List.of("rwop-1", "rwop-2"), conflicting(tracker.filter(incoming, nodes[0])));

    tracker.removePod(first, nodes[0]);

    assertEquals(List.of("rwop-2"), conflicting(tracker.filter(incoming, nodes[0])));
  }

  @Test
  @DisplayName("removing one of two users of a claim leaves it in use (kube's single count would free it)")
  void twoUsersOfOneClaim() {
    var first = pod("default", "first", "rwop-1");
    var second = pod("default", "second", "rwop-1");
    var nodes = new NodeInfo[] {node("n1", first), node("n2", second)};
    var incoming = pod("default", "p", "rwop-1");
    var tracker = track(incoming, nodes);

    tracker.removePod(first, nodes[0]);
    assertEquals(List.of("rwop-1"), conflicting(tracker.filter(incoming, nodes[0])));

    tracker.removePod(second, nodes[1]);
    assertTrue(tracker.filter(incoming, nodes[0]).fits());
  }

  @Test
  @DisplayName("a pod of another namespace using a claim of the same name changes nothing (kube's count would)")
  void otherNamespace() {
    var user = pod("default", "user", "rwop-1");
    var stranger = pod("other", "stranger", "rwop-1");
    var nodes = new NodeInfo[] {node("n1", user, stranger)};
    var incoming = pod("default", "p", "rwop-1");
    var tracker = track(incoming, nodes);

    tracker.removePod(stranger, nodes[0]);
    assertEquals(List.of("rwop-1"), conflicting(tracker.filter(incoming, nodes[0])));
  }

  @Test
  @DisplayName("a pod kube's PreFilter skips (claim not in use, no disk volume) gets a tracker that ignores pods")
  void skipped() {
    var nodes = new NodeInfo[] {node("n1")};
    var incoming = pod("default", "p", "rwop-1");
    var tracker = track(incoming, nodes);

    // kube calls no AddPod for a skipped plugin, even for a pod that uses the claim
    tracker.addPod(pod("default", "nominated", "rwop-1"), nodes[0]);

    assertTrue(tracker.filter(incoming, nodes[0]).fits());
  }

  @Test
  @DisplayName("the tracker still checks disk conflicts against the node it is given")
  void diskConflicts() {
    var disk = new Volume.GcePersistentDisk("disk", false);
    var holder = PodInfo.builder("default", "holder").volumes(List.of(disk)).build();
    var incoming = PodInfo.builder("default", "p").volumes(List.of(disk)).build();
    var withHolder = node("n1", holder);
    var tracker = track(incoming, withHolder);

    assertInstanceOf(Reason.DiskConflict.class, FilterFixtures.reasons(tracker.filter(incoming, withHolder)).get(0));
    tracker.removePod(holder, withHolder);
    assertTrue(tracker.filter(incoming, withHolder.withoutPod(holder.uid())).fits());
  }
}
