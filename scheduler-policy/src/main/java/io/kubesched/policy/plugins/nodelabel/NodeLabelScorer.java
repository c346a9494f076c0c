package io.kubesched.policy.plugins.nodelabel;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Scorer;

/**
 * Favours nodes that carry (or lack) a label, whatever its value: kube-scheduler's former {@code
 * NodeLabelPriority} (policy argument {@code labelPreference: {label, presence}}), removed from kube since.
 *
 * <p>A node scores {@link Scorer#MAX_SCORE} when whether it has the label equals {@code presence}, else 0. The
 * old priority scored 10 on its 0..10 scale; this is the same on today's 0..100 scale. No normalisation.
 *
 * <p>Immutable and thread-safe.
 */
public final class NodeLabelScorer implements Scorer {

  /** The scorer's name. */
  public static final String NAME = "NodeLabel";

  private final String label;
  private final boolean presence;

  /**
   * @param label the label key to look for
   * @param presence {@code true} to favour nodes that have the label, {@code false} to favour nodes without it
   * @throws IllegalArgumentException if {@code label} is empty
   */
  public NodeLabelScorer(String label, boolean presence) {
    if (label.isEmpty()) {
      throw new IllegalArgumentException(NAME + " label must not be empty");
    }
    this.label = label;
    this.presence = presence;
  }

  /** @return the label key looked for */
  public String label() {
    return label;
  }

  /** @return whether nodes with the label (true) or without it (false) are favoured */
  public boolean presence() {
    return presence;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long score(PodInfo pod, NodeInfo node) {
    return node.labels().containsKey(label) == presence ? MAX_SCORE : 0;
  }
}
