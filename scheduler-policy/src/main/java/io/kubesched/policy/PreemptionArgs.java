package io.kubesched.policy;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.ConfigurationException;
import org.apiguardian.api.API;

/**
 * How many nodes preemption evaluates before it picks one, as kube-scheduler's {@code DefaultPreemptionArgs}
 * set it: {@code max(minCandidateNodesPercentage % of the nodes that could help, minCandidateNodesAbsolute)},
 * never more than those nodes.
 *
 * @param minCandidateNodesPercentage 0 to 100; kube-scheduler's default is 10
 * @param minCandidateNodesAbsolute 0 or more; kube-scheduler's default is 100
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record PreemptionArgs(int minCandidateNodesPercentage, int minCandidateNodesAbsolute) {

  /** kube-scheduler's defaults: 10 % and at least 100 nodes. */
  public static final PreemptionArgs DEFAULT = new PreemptionArgs(10, 100);

  /**
   * @throws ConfigurationException with kube-scheduler's message if a value is out of range, or both are 0
   */
  public PreemptionArgs {
    if (minCandidateNodesPercentage < 0 || minCandidateNodesPercentage > 100) {
      throw new ConfigurationException("minCandidateNodesPercentage: Invalid value: "
          + minCandidateNodesPercentage + ": not in valid range [0, 100]");
    }
    if (minCandidateNodesAbsolute < 0) {
      throw new ConfigurationException("minCandidateNodesAbsolute: Invalid value: "
          + minCandidateNodesAbsolute + ": not in valid range [0, inf)");
    }
    if (minCandidateNodesPercentage == 0 && minCandidateNodesAbsolute == 0) {
      throw new ConfigurationException("minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the "
          + "same time as minCandidateNodesAbsolute");
    }
  }

  /**
   * @param potentialNodes how many nodes removing pods could help
   * @return how many candidates to look for among them
   */
  public int candidatesWanted(int potentialNodes) {
    int n = (int) ((long) potentialNodes * minCandidateNodesPercentage / 100);
    return Math.min(Math.max(n, minCandidateNodesAbsolute), potentialNodes);
  }
}
