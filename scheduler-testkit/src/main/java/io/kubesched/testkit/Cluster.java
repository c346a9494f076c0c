package io.kubesched.testkit;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.NodeInfo;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The nodes a policy is given, as a snapshot: each node with the pods already placed on it.
 *
 * @param nodes the nodes, in the order a policy receives them; unmodifiable; may be empty
 */
@API(status = MAINTAINED, since = "0.1.0")
public record Cluster(List<NodeInfo> nodes) {

  /** @throws IllegalArgumentException if two nodes have the same name */
  public Cluster {
    nodes = List.copyOf(nodes);
    var names = new HashSet<String>();
    for (var node : nodes) {
      if (!names.add(node.name())) {
        throw new IllegalArgumentException("cluster node names must be unique, '" + node.name() + "' is repeated");
      }
    }
  }

  /** @return the node named {@code name}; empty if the cluster has none */
  public Optional<NodeInfo> node(String name) {
    return nodes.stream().filter(node -> node.name().equals(name)).findFirst();
  }

  /** @return the names of the nodes, in order */
  public List<String> nodeNames() {
    return nodes.stream().map(NodeInfo::name).toList();
  }

  /** @return how many nodes the cluster has */
  public int size() {
    return nodes.size();
  }
}
