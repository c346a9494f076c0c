package io.kubesched.policy;

import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.runtime.Recorder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects what an {@link Explanation} shows, node by node, in examination order, as the runtime evaluates one
 * pod for {@link Policy#explain}. Confined to the thread that explains.
 */
final class ExplanationRecorder implements Recorder {
  private final Map<String, List<Explanation.FilterOutcome>> filters = new LinkedHashMap<>();
  private final Map<String, Map<String, Long>> scores = new HashMap<>();
  private final Map<String, Long> totals = new HashMap<>();
  private String note = "";

  @Override
  public void filtered(String node, String filter, FilterResult result) {
    filters.computeIfAbsent(node, n -> new ArrayList<>()).add(new Explanation.FilterOutcome(filter, result));
  }

  @Override
  public void restart(String node) {
    var outcomes = filters.get(node);
    if (outcomes != null) {
      outcomes.clear();
    }
  }

  @Override
  public void scored(String node, String scorer, long score, long total) {
    scores.computeIfAbsent(node, n -> new LinkedHashMap<>()).put(scorer, score);
    totals.put(node, total);
  }

  @Override
  public void note(String note) {
    this.note = note;
  }

  /** @return how the node was chosen when not by the scores; empty otherwise */
  String note() {
    return note;
  }

  /** @return each node examined, with what each filter said and its scores, in examination order */
  List<Explanation.NodeExplanation> nodes() {
    var nodes = new ArrayList<Explanation.NodeExplanation>();
    filters.forEach(
        (node, outcomes) ->
            nodes.add(
                new Explanation.NodeExplanation(
                    node, outcomes, scores.getOrDefault(node, Map.of()), totals.getOrDefault(node, 0L))));
    return nodes;
  }
}
