package io.kubesched.policy.plugins.helper;

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
    var selector = pod.nodeSelector();
    // Checked first: iterating even an empty immutable map creates objects, and this runs for every node.
    if (!selector.isEmpty()) {
      for (var entry : selector.entrySet()) {
        if (!entry.getValue().equals(node.labels().get(entry.getKey()))) {
          return false;
        }
      }
    }
    var required = pod.affinity().required();
    return required.isEmpty() || matchesAny(required, node);
  }

  /**
   * @return {@link #matchesRequired} for {@code pod} on any node, with the pod's node selector read once
   *     (kube's {@code GetRequiredNodeAffinity})
   */
  public static RequiredNodeAffinity requiredOf(PodInfo pod) {
    return new RequiredNodeAffinity(pod);
  }

  /**
   * One pod's {@link #matchesRequired}: its node selector as arrays, so that a node's check creates no
   * object. Immutable and thread-safe.
   */
  public static final class RequiredNodeAffinity {
    private final String[] keys;
    private final String[] values;
    private final List<NodeSelectorTerm> terms;

    private RequiredNodeAffinity(PodInfo pod) {
      var selector = pod.nodeSelector();
      keys = new String[selector.size()];
      values = new String[selector.size()];
      int i = 0;
      for (var entry : selector.entrySet()) {
        keys[i] = entry.getKey();
        values[i] = entry.getValue();
        i++;
      }
      terms = pod.affinity().required();
    }

    /** @return whether the pod has neither a node selector nor required node affinity */
    public boolean isEmpty() {
      return keys.length == 0 && terms.isEmpty();
    }

    /** @return {@link #matchesRequired} of the pod on {@code node} */
    public boolean matches(NodeInfo node) {
      var labels = node.labels();
      for (int i = 0; i < keys.length; i++) {
        if (!values[i].equals(labels.get(keys[i]))) {
          return false;
        }
      }
      return terms.isEmpty() || matchesAny(terms, node);
    }
  }

  /** @return whether {@code node} matches at least one non-empty, valid term of {@code terms} */
  public static boolean matchesAny(List<NodeSelectorTerm> terms, NodeInfo node) {
    for (int i = 0; i < terms.size(); i++) {
      if (matches(terms.get(i), node)) {
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
