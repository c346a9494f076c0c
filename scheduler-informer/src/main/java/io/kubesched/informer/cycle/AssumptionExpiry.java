package io.kubesched.informer.cycle;

import io.kubesched.api.PodInfo;
import io.kubesched.engine.QueuedPod;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expired assumptions: the binding succeeded but the watch never showed the pod on its node within the TTL;
 * the assumption is dropped and the pod tried again. Runs on the housekeeping thread, once a second.
 */
public final class AssumptionExpiry implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(AssumptionExpiry.class);

  private final SchedulerCache cache;
  private final SchedulingQueue queue;
  private final Duration ttl;

  public AssumptionExpiry(SchedulerCache cache, SchedulingQueue queue, Duration ttl) {
    this.cache = cache;
    this.queue = queue;
    this.ttl = ttl;
  }

  @Override
  public void run() {
    List<PodInfo> expired;
    try {
      expired = cache.expire();
    } catch (RuntimeException e) { // a failing chore must not stop the ones after it
      LOG.error("Expiring assumed pods failed", e);
      return;
    }
    for (var pod : expired) {
      LOG.warn(
          "Pod {} was bound to {} {} ago but the watch never showed it there; scheduling it again",
          pod.key(), pod.nodeName(), ttl);
      queue.add(QueuedPod.of(pod.toBuilder().nodeName("").build()));
    }
  }
}
