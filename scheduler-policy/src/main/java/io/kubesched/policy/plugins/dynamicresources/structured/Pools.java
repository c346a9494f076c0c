package io.kubesched.policy.plugins.dynamicresources.structured;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.CounterSet;
import io.kubesched.api.NodeSelection;
import io.kubesched.api.ResourceSlice;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pools a node can allocate from: kube's {@code GatherPools} ({@code pools_incubating.go}) with every
 * default-on feature of 1.37 (partitionable devices, per-device node selection). Pure.
 */
final class Pools {

  private Pools() {}

  /** A pool's identity: driver and pool name. */
  record PoolId(String driver, String pool) {
    @Override
    public String toString() {
      return driver + "/" + pool;
    }
  }

  /**
   * One pool as the allocator sees it on a node: kube's {@code Pool}.
   *
   * @param id driver and pool
   * @param incomplete not all slices of its newest generation are published yet; nothing is allocated from it
   * @param invalid its slices contradict each other; nothing is allocated from it
   * @param invalidReason why it is invalid, empty otherwise
   * @param targetingNode the slices with devices the node can reach, by name
   * @param notTargetingNode the pool's other slices (they consume the same shared counters)
   * @param counterSets the pool's shared counters by set name
   */
  record Pool(
      PoolId id,
      boolean incomplete,
      boolean invalid,
      String invalidReason,
      List<ResourceSlice> targetingNode,
      List<ResourceSlice> notTargetingNode,
      Map<String, CounterSet> counterSets) {

    static Pool incomplete(PoolId id) {
      return new Pool(id, true, false, "", List.of(), List.of(), Map.of());
    }

    static Pool invalid(PoolId id, String reason) {
      return new Pool(id, false, true, reason, List.of(), List.of(), Map.of());
    }
  }

  /** A slice whose node selector cannot be evaluated; kube fails the attempt with this message. */
  static final class NodeSelectionException extends Exception {
    private static final long serialVersionUID = 1L;

    NodeSelectionException(String message) {
      super(message);
    }
  }

  /**
   * kube's {@code NodeMatches}: a node name, all nodes, or a selector whose terms are ORed.
   *
   * @return whether {@code node} is selected; false when the selection selects nothing
   */
  static boolean nodeMatches(NodeInfo node, NodeSelection selection) {
    if (selection.nodeName() != null && !selection.nodeName().isEmpty()) {
      return node.name().equals(selection.nodeName());
    }
    if (selection.allNodes()) {
      return true;
    }
    var terms = selection.nodeSelector();
    if (terms != null) {
      for (NodeSelectorTerm term : terms) {
        if (term.matches(node.labels(), node.name())) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Gathers the pools of the slices that may have devices for {@code node}, sorted by driver and pool, the pools
   * with binding conditions last, as kube does.
   *
   * @param slicesForNode the slices published for the node and those for no particular node
   * @param allSlices every slice, to tell whether a pool spread over several nodes is complete
   */
  static List<Pool> gather(NodeInfo node, List<ResourceSlice> slicesForNode, List<ResourceSlice> allSlices) {
    var byPool = new LinkedHashMap<PoolId, List<ResourceSlice>>();
    for (var slice : slicesForNode) {
      boolean relevant;
      var selection = slice.nodeSelection();
      if (!selection.isNone()) {
        relevant = nodeMatches(node, selection);
      } else if (slice.perDeviceNodeSelection()) {
        relevant = false;
        for (var device : slice.devices()) {
          if (nodeMatches(node, device.nodeSelection())) {
            relevant = true;
            break;
          }
        }
      } else {
        continue;
      }
      if (relevant) {
        addSlice(byPool, slice);
      }
    }

    var result = new ArrayList<Pool>();
    var withBindingConditions = new ArrayList<Pool>();
    for (var entry : byPool.entrySet()) {
      var id = entry.getKey();
      var slices = entry.getValue();
      var first = slices.get(0).pool();
      Pool pool;
      if (slices.size() == first.resourceSliceCount()) {
        pool = build(id, slices, List.of());
      } else {
        var all = new ArrayList<ResourceSlice>();
        boolean obsolete = false;
        for (var slice : allSlices) {
          if (!slice.driver().equals(id.driver()) || !slice.pool().name().equals(id.pool())) {
            continue;
          }
          if (slice.pool().generation() == first.generation()) {
            all.add(slice);
          } else if (slice.pool().generation() > first.generation()) {
            obsolete = true;
            break;
          }
        }
        if (obsolete) {
          continue;
        }
        if (all.size() != first.resourceSliceCount()) {
          result.add(Pool.incomplete(id));
          continue;
        }
        pool = build(id, slices, all);
      }
      if (hasBindingConditions(pool)) {
        withBindingConditions.add(pool);
      } else {
        result.add(pool);
      }
    }
    Comparator<Pool> byId = Comparator.comparing((Pool p) -> p.id().driver()).thenComparing(p -> p.id().pool());
    result.sort(byId);
    withBindingConditions.sort(byId);
    result.addAll(withBindingConditions);
    return result;
  }

  private static void addSlice(Map<PoolId, List<ResourceSlice>> byPool, ResourceSlice slice) {
    var id = new PoolId(slice.driver(), slice.pool().name());
    var known = byPool.get(id);
    if (known == null) {
      byPool.put(id, new ArrayList<>(List.of(slice)));
      return;
    }
    long generation = known.get(0).pool().generation();
    if (slice.pool().generation() < generation) {
      return;
    }
    if (slice.pool().generation() > generation) {
      byPool.put(id, new ArrayList<>(List.of(slice)));
      return;
    }
    known.add(slice);
  }

  private static Pool build(PoolId id, List<ResourceSlice> slices, List<ResourceSlice> allSlicesOfPool) {
    var sorted = new ArrayList<>(slices);
    sorted.sort(Comparator.comparing(ResourceSlice::name));
    var deviceSlices = new ArrayList<ResourceSlice>();
    var counterSetSlices = new ArrayList<ResourceSlice>();
    var notTargeting = new ArrayList<ResourceSlice>();
    for (var slice : sorted) {
      (slice.sharedCounters().isEmpty() ? deviceSlices : counterSetSlices).add(slice);
    }
    if (sorted.size() < allSlicesOfPool.size()) {
      var names = new HashSet<String>();
      sorted.forEach(s -> names.add(s.name()));
      for (var slice : allSlicesOfPool) {
        if (names.contains(slice.name())) {
          continue;
        }
        (slice.sharedCounters().isEmpty() ? notTargeting : counterSetSlices).add(slice);
      }
    }

    var deviceNames = new HashSet<String>();
    for (var slice : deviceSlices) {
      for (var device : slice.devices()) {
        if (!deviceNames.add(device.name())) {
          return Pool.invalid(id, "duplicate device name " + device.name());
        }
      }
    }
    var counterSets = new HashMap<String, CounterSet>();
    for (var slice : counterSetSlices) {
      for (var set : slice.sharedCounters()) {
        if (counterSets.putIfAbsent(set.name(), set) != null) {
          return Pool.invalid(id, "duplicate counter set name " + set.name());
        }
      }
    }
    for (var group : List.of(deviceSlices, notTargeting)) {
      var problem = counterConsumptionProblem(counterSets, group);
      if (problem != null) {
        return Pool.invalid(id, problem);
      }
    }
    return new Pool(id, false, false, "", List.copyOf(deviceSlices), List.copyOf(notTargeting), Map.copyOf(counterSets));
  }

  private static @org.jspecify.annotations.Nullable String counterConsumptionProblem(
      Map<String, CounterSet> counterSets, List<ResourceSlice> slices) {
    for (var slice : slices) {
      for (var device : slice.devices()) {
        for (var consumption : device.consumesCounters()) {
          var set = counterSets.get(consumption.counterSet());
          if (set == null) {
            return "counter set " + consumption.counterSet() + " not found";
          }
          for (var counter : consumption.counters().keySet()) {
            if (!set.counters().containsKey(counter)) {
              return "counter " + counter + " not found in counter set " + set.name();
            }
          }
        }
      }
    }
    return null;
  }

  private static boolean hasBindingConditions(Pool pool) {
    for (var slice : pool.targetingNode()) {
      for (var device : slice.devices()) {
        if (!device.bindingConditions().isEmpty()) {
          return true;
        }
      }
    }
    return false;
  }
}
