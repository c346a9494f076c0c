package io.kubesched.informer.watch;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.kubesched.adapter.NodeAdapter;
import io.kubesched.adapter.PodAdapter;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulingConstants;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Lists the nodes, with the pods on them, straight from the API server; and the pod list request the loop watches. */
public final class NodeListing {

  private static final Logger LOG = LoggerFactory.getLogger(NodeListing.class);

  private NodeListing() {}

  /**
   * Lists nodes and the pods bound to them straight from the API server (two LIST calls), for a one-off
   * look without a running controller. Nodes that cannot be read are left out and logged.
   */
  public static List<NodeInfo> list(KubernetesClient client) {
    var pods =
        nonTerminalPods(client).withoutField(SchedulingConstants.FIELD_NODE_NAME, "").list().getItems();
    var byNode = new HashMap<String, List<PodInfo>>();
    for (var pod : pods) {
      if (PodFilters.occupiesNode(pod)) {
        try {
          byNode.computeIfAbsent(PodFilters.nodeName(pod), n -> new ArrayList<>())
              .add(PodAdapter.toPodInfo(pod));
        } catch (MalformedObjectException e) {
          LOG.warn("Leaving out of the node list: {}", e.getMessage());
        }
      }
    }
    return build(client.nodes().list().getItems(), node -> byNode.getOrDefault(node, List.of()));
  }

  /**
   * @return every pod that can still hold resources, selected as kube-scheduler does ({@link
   *     SchedulingConstants#NON_TERMINAL_PODS}); the server may ignore the selector, so filter again
   */
  static FilterWatchListDeletable<Pod, PodList, PodResource> nonTerminalPods(KubernetesClient client) {
    return client
        .pods()
        .inAnyNamespace()
        .withoutField(SchedulingConstants.FIELD_PHASE, "Succeeded")
        .withoutField(SchedulingConstants.FIELD_PHASE, "Failed");
  }

  /**
   * @param nodes the nodes
   * @param podsOnNode the pods placed on the named node
   * @return one {@link NodeInfo} per node that can be read, sorted by name; the others are logged
   */
  static List<NodeInfo> build(Collection<Node> nodes, Function<String, List<PodInfo>> podsOnNode) {
    var infos = new ArrayList<NodeInfo>(nodes.size());
    for (var node : nodes) {
      var name = node.getMetadata().getName();
      try {
        infos.add(NodeAdapter.toNodeInfo(node, podsOnNode.apply(name)));
      } catch (MalformedObjectException e) {
        LOG.warn("Leaving node out of the node list: {}", e.getMessage());
      }
    }
    infos.sort(Comparator.comparing(NodeInfo::name));
    return infos;
  }

  /** @return the uid of {@code pod} */
  static String uid(Pod pod) {
    return pod.getMetadata().getUid();
  }
}
