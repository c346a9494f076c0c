package io.kubesched.policy.framework.runtime;

/**
 * Hears what one evaluation did, node by node, for an explanation: what each filter said ({@link
 * Filtering.Listener}), each scorer's score and the running total, and a note on how the node was chosen. The
 * evaluation calls it on the thread that evaluates (an explained evaluation never shares its node loop out).
 */
public interface Recorder extends Filtering.Listener {

  /** {@code scorer} gave {@code node} {@code score}; its weighted total is now {@code total}. */
  void scored(String node, String scorer, long score, long total);

  /** How the node was chosen, when it was not by the scores, e.g. the only feasible one. */
  void note(String note);
}
