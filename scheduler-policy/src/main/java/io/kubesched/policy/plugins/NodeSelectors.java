package io.kubesched.policy.plugins;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PodInfo;
import java.util.List;

/**
 * A pod's and its plugins' node selectors matched against nodes with Kubernetes' rules: {@link
 * NodeSelectorTerm#matches} for one term, and a pod's {@code nodeSelector} with its required node affinity.
 */
public final class NodeSelectors {

  /** The only node field a {@code matchFields} requirement may name. */
  public static final String NODE_NAME_FIELD = NodeSelectorTerm.NODE_NAME_FIELD;

  private NodeSelectors() {}

  /**
   * Kubernetes' {@code RequiredNodeAffinity.Match}: the node carries every label of the pod's {@code
   * nodeSelector}, and, if the pod has required node affinity, matches at least one of its terms.
   */
  public static boolean matchesRequired(PodInfo pod, NodeInfo node) {
    for (var entry : pod.nodeSelector().entrySet()) {
      if (!entry.getValue().equals(node.labels().get(entry.getKey()))) {
        return false;
      }
    }
    var required = pod.affinity().required();
    return required.isEmpty() || matchesAny(required, node);
  }

  /** @return whether {@code node} matches at least one non-empty, valid term of {@code terms} */
  public static boolean matchesAny(List<NodeSelectorTerm> terms, NodeInfo node) {
    for (var term : terms) {
      if (matches(term, node)) {
        return true;
      }
    }
    return false;
  }

  /** @return whether {@code node} matches {@code term}; an empty or invalid term matches nothing */
  public static boolean matches(NodeSelectorTerm term, NodeInfo node) {
    return term.matches(node.labels(), node.name());
  }
}
