package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Whether a DRA run's placement kept its claims: every measured pod seen bound has each of its claims seen allocated
 * on its node (every device from the node's pool, the allocation's node selector naming no other node), and no
 * device was ever allocated to two claims at once. It follows the claims of every namespace by one watch (the
 * claims allocated beforehand come first, as the watch's initial events) and the measured pods by another, so
 * that pods the runner deletes once bound ({@link PodShape#deletesBound}) are checked too; a claim's first
 * allocation seen is the one checked, and a device is free again once its claim is seen deallocated or deleted.
 *
 * <p>Threads: fabric8's watch threads call {@link #claims()} and {@link #pods(Consumer)}'s watchers; the runner
 * calls {@link #result}. Everything is guarded by this object's lock.
 */
final class ClaimCheck {

  /** A claim's allocation: the pools and devices of its results, and the node its node selector names, if one. */
  record Allocation(List<String> devices, List<String> pools, @Nullable String selectedNode) {
    Allocation {
      devices = List.copyOf(devices);
      pools = List.copyOf(pools);
    }
  }

  /** A measured pod seen bound: its node and the names of its claims as the pod then said them. */
  private record BoundPod(String node, List<String> claims) {}

  private final Map<String, Allocation> firstAllocation = new HashMap<>();
  private final Map<String, String> holderByDevice = new HashMap<>();
  private final Map<String, Allocation> current = new HashMap<>();
  private final Map<String, BoundPod> bound = new HashMap<>();
  private int sharedDevices;
  private @Nullable WatcherException closedWith;

  /** The claims' watcher: every namespace's claims. */
  Watcher<ResourceClaim> claims() {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, ResourceClaim claim) {
        claimEvent(action == Action.DELETED, claim);
      }

      @Override
      public void onClose(WatcherException cause) {
        closed(cause);
      }
    };
  }

  /**
   * The measured pods' watcher.
   *
   * @param onBound called with each pod the first time it is seen bound, after it is recorded (the steady state's
   *     deletion)
   */
  Watcher<Pod> pods(Consumer<Pod> onBound) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        if (podEvent(pod)) {
          onBound.accept(pod);
        }
      }

      @Override
      public void onClose(WatcherException cause) {
        closed(cause);
      }
    };
  }

  private synchronized void closed(WatcherException cause) {
    closedWith = cause;
  }

  /** Records a claim as seen: allocated, deallocated, or deleted. */
  synchronized void claimEvent(boolean deleted, ResourceClaim claim) {
    var key = claim.getMetadata().getNamespace() + "/" + claim.getMetadata().getName();
    var allocation = deleted ? null : allocationOf(claim);
    var before = current.remove(key);
    if (before != null) {
      before.devices().forEach(device -> holderByDevice.remove(device, key));
    }
    if (allocation == null) {
      return;
    }
    current.put(key, allocation);
    firstAllocation.putIfAbsent(key, allocation);
    for (var device : allocation.devices()) {
      var holder = holderByDevice.putIfAbsent(device, key);
      if (holder != null && !holder.equals(key)) {
        sharedDevices++;
      }
    }
  }

  /**
   * Brings the record up to {@code listed}, every claim as a list shows it after a watch was resumed ({@link
   * ResumingWatch}): a claim known and not listed was deleted meanwhile, the others are seen as listed. A device
   * allocated and freed again within the gap is not seen.
   */
  synchronized void claimsListed(List<ResourceClaim> listed) {
    var keys = new java.util.HashSet<String>();
    for (var claim : listed) {
      keys.add(claim.getMetadata().getNamespace() + "/" + claim.getMetadata().getName());
    }
    for (var key : List.copyOf(current.keySet())) {
      if (!keys.contains(key)) {
        current.remove(key).devices().forEach(device -> holderByDevice.remove(device, key));
      }
    }
    listed.forEach(claim -> claimEvent(false, claim));
  }

  /**
   * Records a pod the first time it is seen bound.
   *
   * @return whether this event is that first time
   */
  synchronized boolean podEvent(Pod pod) {
    var node = pod.getSpec().getNodeName();
    var key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    if (node == null || node.isEmpty() || bound.containsKey(key)) {
      return false;
    }
    bound.put(key, new BoundPod(node, claimNames(pod)));
    return true;
  }

  /**
   * The figures so far.
   *
   * @throws IllegalStateException if a watch ended with an error: what it missed is unknown
   */
  synchronized RunResult.Claims result() {
    if (closedWith != null) {
      throw new IllegalStateException("the benchmark's claim check lost a watch", closedWith);
    }
    int claims = 0;
    int unallocated = 0;
    int elsewhere = 0;
    for (var entry : bound.entrySet()) {
      var pod = entry.getValue();
      var namespace = entry.getKey().substring(0, entry.getKey().indexOf('/'));
      if (pod.claims().isEmpty()) {
        unallocated++; // a pod bound before its claim was made: nothing was allocated for it
        continue;
      }
      for (var claim : pod.claims()) {
        claims++;
        var allocation = firstAllocation.get(namespace + "/" + claim);
        if (allocation == null) {
          unallocated++;
        } else if (!allocation.pools().stream().allMatch(pod.node()::equals)
            || (allocation.selectedNode() != null && !pod.node().equals(allocation.selectedNode()))) {
          elsewhere++;
        }
      }
    }
    return new RunResult.Claims(bound.size(), claims, unallocated, elsewhere, sharedDevices);
  }

  /**
   * The names of a pod's claims: those it names itself, and those the resource claim controller made from its
   * templates ({@code status.resourceClaimStatuses}); a template entry whose claim is not made yet is left out.
   */
  static List<String> claimNames(Pod pod) {
    var names = new ArrayList<String>();
    var entries = pod.getSpec().getResourceClaims();
    if (entries != null) {
      entries.stream().map(e -> e.getResourceClaimName()).filter(Objects::nonNull).forEach(names::add);
    }
    var statuses = pod.getStatus() == null ? null : pod.getStatus().getResourceClaimStatuses();
    if (statuses != null) {
      statuses.stream().map(s -> s.getResourceClaimName()).filter(Objects::nonNull).forEach(names::add);
    }
    return List.copyOf(names);
  }

  /**
   * @return a claim's allocation (devices as {@code driver/pool/device}), or null if it has none; the selected node
   *     is the one value of a {@code metadata.name In} field of a single node selector term, null otherwise
   */
  static @Nullable Allocation allocationOf(ResourceClaim claim) {
    var status = claim.getStatus();
    var allocation = status == null ? null : status.getAllocation();
    if (allocation == null || allocation.getDevices() == null || allocation.getDevices().getResults() == null) {
      return null;
    }
    var devices = new ArrayList<String>();
    var pools = new ArrayList<String>();
    for (var result : allocation.getDevices().getResults()) {
      devices.add(result.getDriver() + "/" + result.getPool() + "/" + result.getDevice());
      pools.add(result.getPool());
    }
    String node = null;
    var selector = allocation.getNodeSelector();
    if (selector != null && selector.getNodeSelectorTerms() != null && selector.getNodeSelectorTerms().size() == 1) {
      var fields = selector.getNodeSelectorTerms().get(0).getMatchFields();
      if (fields != null && fields.size() == 1 && "metadata.name".equals(fields.get(0).getKey())
          && "In".equals(fields.get(0).getOperator()) && fields.get(0).getValues().size() == 1) {
        node = fields.get(0).getValues().get(0);
      }
    }
    return new Allocation(devices, pools, node);
  }
}
