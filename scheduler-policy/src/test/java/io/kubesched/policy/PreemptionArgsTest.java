package io.kubesched.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.ConfigurationException;
import org.junit.jupiter.api.Test;

/** kube-scheduler 1.37's {@code ValidateDefaultPreemptionArgs} and {@code calculateNumCandidates}. */
class PreemptionArgsTest {

  @Test
  void the_candidates_are_the_percentage_raised_to_the_absolute_and_capped_at_the_potential_nodes() {
    assertEquals(10, new PreemptionArgs(5, 10).candidatesWanted(100), "no need to sample");
    assertEquals(100, PreemptionArgs.DEFAULT.candidatesWanted(1000), "the absolute wins");
    assertEquals(500, PreemptionArgs.DEFAULT.candidatesWanted(5000), "the percentage wins");
    assertEquals(50, new PreemptionArgs(5, 500).candidatesWanted(50), "capped at the potential nodes");
    assertEquals(0, PreemptionArgs.DEFAULT.candidatesWanted(0));
  }

  @Test
  void out_of_range_values_are_refused_with_kube_schedulers_messages() {
    assertEquals(
        "minCandidateNodesPercentage: Invalid value: -1: not in valid range [0, 100]",
        assertThrows(ConfigurationException.class, () -> new PreemptionArgs(-1, 100)).getMessage());
    assertEquals(
        "minCandidateNodesPercentage: Invalid value: 900: not in valid range [0, 100]",
        assertThrows(ConfigurationException.class, () -> new PreemptionArgs(900, 100)).getMessage());
    assertEquals(
        "minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)",
        assertThrows(ConfigurationException.class, () -> new PreemptionArgs(10, -1)).getMessage());
    assertEquals(
        "minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as "
            + "minCandidateNodesAbsolute",
        assertThrows(ConfigurationException.class, () -> new PreemptionArgs(0, 0)).getMessage());
  }
}
