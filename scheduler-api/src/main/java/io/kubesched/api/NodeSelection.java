package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Which nodes can reach the devices of a {@link ResourceSlice} or of one {@link Device}: exactly one of a node's
 * name, a node selector (its terms ORed), or all nodes, as kube's {@code nodeName}, {@code nodeSelector} and
 * {@code allNodes}. {@link #NONE} for a device of a slice that selects nodes for all its devices.
 *
 * @param nodeName the one node; {@code null} unless that is the selection
 * @param nodeSelector the terms, any of which a node must match; {@code null} unless that is the selection
 * @param allNodes whether every node can reach them
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record NodeSelection(
    @Nullable String nodeName, @Nullable List<NodeSelectorTerm> nodeSelector, boolean allNodes) {

  /** No selection at this level. */
  public static final NodeSelection NONE = new NodeSelection(null, null, false);

  /** Every node. */
  public static final NodeSelection ALL_NODES = new NodeSelection(null, null, true);

  public NodeSelection {
    nodeSelector = nodeSelector == null ? null : List.copyOf(nodeSelector);
  }

  /** @return the selection of one node by name */
  public static NodeSelection node(String nodeName) {
    return new NodeSelection(nodeName, null, false);
  }

  /** @return the selection of the nodes matching any of {@code terms} */
  public static NodeSelection selector(List<NodeSelectorTerm> terms) {
    return new NodeSelection(null, terms, false);
  }

  /** @return whether nothing is selected at this level */
  public boolean isNone() {
    return nodeName == null && nodeSelector == null && !allNodes;
  }
}
