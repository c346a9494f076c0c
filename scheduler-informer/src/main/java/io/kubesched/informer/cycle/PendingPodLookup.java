package io.kubesched.informer.cycle;

import io.fabric8.kubernetes.api.model.Pod;
import org.jspecify.annotations.Nullable;

/**
 * The pods of ours not bound yet, as the watch last showed them: what the cycles read of the informers. The
 * event handlers keep them in the running loop and in the loop's unit tests. Thread-safe; never blocks.
 */
@FunctionalInterface
public interface PendingPodLookup {

  /**
   * @return the pod of {@code uid} in the kept form the informers' store holds, while it is ours, unbound and
   *     not deleted; else null
   */
  @Nullable Pod pendingPod(String uid);
}
