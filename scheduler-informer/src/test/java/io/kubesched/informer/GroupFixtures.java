package io.kubesched.informer;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.informer.cycle.PodGroupLookup;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/** What the pod group loop tests share: a finder that counts pods per node, and a lookup over a map. */
final class GroupFixtures {

  private GroupFixtures() {}

  /**
   * @param slots how many pods a node holds
   * @param tried runs once per decision
   * @return a finder that fits a pod on the first node, in the snapshot it is given, holding fewer than {@code
   *     slots} pods
   */
  static FinderFunc slots(int slots, Runnable tried) {
    return new FinderFunc() {
      @Override
      public Decision find(PodInfo pod, List<NodeInfo> nodes) {
        tried.run();
        var reasons = new HashMap<String, List<String>>();
        for (var node : nodes) {
          if (node.pods().size() < slots) {
            return Decision.bind(node.name());
          }
          reasons.put(node.name(), List.of("Too many pods"));
        }
        return Decision.unschedulable(reasons);
      }

      @Override
      public Decision find(PodInfo pod, ClusterSnapshot cluster) {
        return find(pod, cluster.nodes());
      }
    };
  }

  /** @return a lookup of the groups in {@code groups} (read at each call), honouring every source while asked */
  static PodGroupLookup lookup(Map<PodGroupRef, PodGroup> groups, BooleanSupplier honoured) {
    return new PodGroupLookup() {
      @Override
      public boolean honours(PodGroupRef.Source source) {
        return honoured.getAsBoolean();
      }

      @Override
      public @Nullable PodGroup group(PodGroupRef ref) {
        return groups.get(ref);
      }

      @Override
      public @Nullable String invalid(PodGroupRef ref) {
        return null;
      }
    };
  }
}
