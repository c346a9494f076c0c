package io.kubesched.informer.cycle;

import io.kubesched.api.ClaimDeallocation;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writes of kube-scheduler's DynamicResources PostFilter: a decision that the pod fits nowhere may name claims to
 * deallocate, or a claim for its extended resources to delete ({@link
 * io.kubesched.api.Decision.Unschedulable#claimDeallocations()}); {@link #deallocate}, from the
 * scheduling thread, hands them to the {@code writers} executor (the preemption threads, where kube's other
 * PostFilter writes run) and returns at once, where kube writes synchronously in its scheduling cycle. The pod has
 * been requeued as unschedulable by then; the claim's update event moves it again (DynamicResources' queueing hint
 * for a claim that lost its allocation). A write refused because the claim changed meanwhile is logged only: the
 * pod's next attempt decides on the claim as it is then.
 */
public final class ClaimDeallocations {

  private static final Logger LOG = LoggerFactory.getLogger(ClaimDeallocations.class);

  private final ClaimPort port;
  private final Executor writers;

  /**
   * @param port where the claims are written
   * @param writers runs one task per decision
   */
  public ClaimDeallocations(ClaimPort port, Executor writers) {
    this.port = port;
    this.writers = writers;
  }

  /** Deallocates {@code claims} for pod {@code podKey}'s attempt, on a writer thread. */
  void deallocate(String podKey, List<ClaimDeallocation> claims) {
    if (claims.isEmpty()) {
      return;
    }
    try {
      writers.execute(() -> write(podKey, claims));
    } catch (RejectedExecutionException closing) {
      LOG.debug("Not deallocating claims {} for pod {}: the loop is closing", claims, podKey);
    }
  }

  private void write(String podKey, List<ClaimDeallocation> claims) {
    try {
      for (var claim : claims) {
        if (port.deallocate(claim)) {
          if (claim.delete()) {
            LOG.info("Deleted resourceclaim {}, made for pod {}'s extended resources in an earlier attempt, so that"
                + " its next attempt makes one where it fits", claim.key(), podKey);
          } else {
            LOG.info("Deallocated resourceclaim {} so that pod {} can use it on another node", claim.key(), podKey);
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
