package io.kubesched.api;

import java.util.List;

/**
 * A term of a node selector: a node matches it when it meets every requirement of both lists. A term with
 * no requirement at all matches no node, as in Kubernetes.
 *
 * @param matchExpressions requirements on node labels
 * @param matchFields requirements on node fields ({@code metadata.name} is the only field Kubernetes
 *     supports)
 */
public record NodeSelectorTerm(
    List<NodeSelectorRequirement> matchExpressions, List<NodeSelectorRequirement> matchFields) {

  public NodeSelectorTerm {
    matchExpressions = List.copyOf(matchExpressions);
    matchFields = List.copyOf(matchFields);
  }

  /** @return a term with label requirements only */
  public static NodeSelectorTerm ofExpressions(NodeSelectorRequirement... matchExpressions) {
    return new NodeSelectorTerm(List.of(matchExpressions), List.of());
  }
}
