package io.kubesched.drills;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's own client throttled hard: a burst of pods created at once (by the runner's admin client,
 * on {@value #CREATORS} threads) while the scheduler under test runs with {@code Options.Builder.rateLimit(}
 * {@value #QPS}, {@value #LIMIT_BURST}{@code )}, so that its bindings, and its reports (events and pod
 * conditions, in a limit of their own), go out at 5 a second at most. The limit is the scheduler's for the
 * whole drill: this fault runs in a drill of its own ({@link Drills} refuses it with others), whose controller
 * {@link DrillRun} creates with that limit.
 *
 * <p>Nothing heals: the burst is the fault, and recovery is the time from the burst created to every one of
 * its pods (and the stream's) bound, about {@code burst / 5} seconds. The burst's pods are plain and small
 * (10m CPU, 16 MiB), so that the node count sets how many fit ({@value #PODS_PER_NODE} per node).
 *
 * <p>Runner's thread only.
 */
final class Throttle implements Fault {

  static final double QPS = 5;
  static final int LIMIT_BURST = 5;
  static final int PODS_PER_NODE = 110;
  private static final int CREATORS = 4;
  private static final Logger LOG = LoggerFactory.getLogger(Throttle.class);

  private final int burst;
  private final Set<String> created = ConcurrentHashMap.newKeySet();
  private int trial;

  /** @param burst how many pods each trial creates at once; positive */
  Throttle(int burst) {
    if (burst < 1) {
      throw new IllegalArgumentException("throttle: burst must be at least 1, got " + burst);
    }
    this.burst = burst;
  }

  @Override
  public String name() {
    return "throttle";
  }

  @Override
  public void inject(Target target) throws Exception {
    var admin = target.cluster().admin();
    var prefix = "thr" + trial++;
    created.clear();
    var next = new AtomicInteger();
    var pool = Executors.newFixedThreadPool(CREATORS);
    try {
      var done = new ArrayList<Future<?>>();
      for (int t = 0; t < CREATORS; t++) {
        done.add(pool.submit(() -> {
          for (int i = next.getAndIncrement(); i < burst; i = next.getAndIncrement()) {
            var name = prefix + "-" + i;
            try {
              admin.pods().inNamespace(DrillRun.NAMESPACE).resource(PodStream.pod(DrillRun.NAMESPACE,
                  DrillRun.SCHEDULER, name, Snapshot.Kind.PLACEABLE, null, "10m", "16Mi")).create();
              created.add(name);
            } catch (KubernetesClientException e) {
              LOG.warn("creating {} failed: {}", name, e.getMessage());
            }
          }
        }));
      }
      for (var future : done) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Override
  public void heal(Target target) {
    // The burst is over once created; the limit stays.
  }

  @Override
  public Set<String> mustBind() {
    return Set.copyOf(created);
  }

  @Override
  public int podsCreated() {
    return created.size();
  }

  /** @return the pods of one burst, for the caller to check that the nodes have room */
  int burst() {
    return burst;
  }
}
