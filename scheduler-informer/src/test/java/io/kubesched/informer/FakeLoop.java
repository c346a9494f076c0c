package io.kubesched.informer;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.SchedulingListener;
import io.kubesched.binder.TokenBucket;
import io.kubesched.binder.VictimOutcome;
import io.kubesched.binder.VolumeOutcome;
import io.kubesched.engine.StorageCache;
import io.kubesched.engine.Ticker;
import io.kubesched.informer.cycle.BindPort;
import io.kubesched.informer.cycle.PodGroupLookup;
import io.kubesched.informer.cycle.PreemptPort;
import io.kubesched.informer.cycle.Profiles;
import io.kubesched.informer.cycle.Reporting;
import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ClaimDeallocation;
import io.kubesched.binder.ClaimOutcome;
import io.kubesched.informer.cycle.ClaimAssumptions;
import io.kubesched.informer.cycle.ClaimPort;
import io.kubesched.informer.cycle.VolumePort;
import io.kubesched.informer.report.GroupReportPort;
import io.kubesched.informer.report.GuardedMetrics;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * The loop's parts wired for tests without an API server: one profile, named by the settings, that leads from
 * the start; bindings, reports and evictions run inline on the calling thread; writes never wait for a token;
 * snapshots are plain {@link ClusterSnapshot#of}. What a test does not name is inert: no listener, no
 * metrics, a fresh {@link StorageCache}, and volume and preemption ports that fail the test if used. Not
 * thread-safe; one instance builds one loop.
 */
final class FakeLoop {

  /** A token bucket that always has a token. */
  static final TokenBucket UNLIMITED =
      new TokenBucket() {
        @Override
        public void acquire() {}

        @Override
        public boolean tryAcquire() {
          return true;
        }
      };

  /** A preemption port for loops that must not preempt. */
  static final PreemptPort NO_PREEMPTION =
      new PreemptPort() {
        @Override
        public VictimOutcome preempt(PodInfo victim, String conditionMessage) {
          throw new AssertionError("no preemption expected");
        }

        @Override
        public boolean clearNomination(PodInfo pod) {
          throw new AssertionError("no preemption expected");
        }
      };

  /** A volume port for loops that must not write volumes. */
  static final VolumePort NO_VOLUME_WRITES =
      new VolumePort() {
        @Override
        public VolumeOutcome bindVolume(String volumeName, String claimNamespace, String claimName, String uid) {
          throw new AssertionError("no volume write expected");
        }

        @Override
        public VolumeOutcome selectNode(String claimNamespace, String claimName, String uid, String nodeName) {
          throw new AssertionError("no volume write expected");
        }
      };

  /** A claim port for loops that must not write ResourceClaims. */
  static final ClaimPort NO_CLAIM_WRITES =
      new ClaimPort() {
        @Override
        public ClaimOutcome reserve(ClaimAllocation claim, String podName, String podUid) {
          throw new AssertionError("no claim write expected");
        }

        @Override
        public void unreserve(ClaimAllocation claim, String podUid) {
          throw new AssertionError("no claim write expected");
        }

        @Override
        public boolean deallocate(ClaimDeallocation claim) {
          throw new AssertionError("no claim write expected");
        }
      };

  private final ControllerSettings settings;
  private final FinderFunc finder;
  private final Ticker clock;
  private final BindPort bindPort;
  private SchedulingListener listener = SchedulingListener.NONE;
  private SchedulerMetrics metrics = SchedulerMetrics.NONE;
  private StorageCache storage = new StorageCache();
  private VolumePort volumePort = NO_VOLUME_WRITES;
  private ClaimPort claimPort = NO_CLAIM_WRITES;
  private ClaimAssumptions claimAssumptions = ClaimAssumptions.NONE;
  private Executor preemptors = Runnable::run;
  private Executor victims = Runnable::run;
  private PreemptPort preemptPort = NO_PREEMPTION;
  private PodGroupLookup groups = PodGroupLookup.NONE;
  private GroupReportPort groupReport = GroupReportPort.NONE;

  private FakeLoop(ControllerSettings settings, FinderFunc finder, Ticker clock, BindPort bindPort) {
    this.settings = settings;
    this.finder = finder;
    this.clock = clock;
    this.bindPort = bindPort;
  }

  /** @return a loop of one profile, {@code settings.schedulerName()} served by {@code finder} */
  static FakeLoop of(ControllerSettings settings, FinderFunc finder, Ticker clock, BindPort bindPort) {
    return new FakeLoop(settings, finder, clock, bindPort);
  }

  FakeLoop listener(SchedulingListener value) {
    listener = value;
    return this;
  }

  /** @param value not yet {@linkplain GuardedMetrics guarded} */
  FakeLoop metrics(SchedulerMetrics value) {
    metrics = value;
    return this;
  }

  FakeLoop storage(StorageCache value) {
    storage = value;
    return this;
  }

  FakeLoop volumes(VolumePort value) {
    volumePort = value;
    return this;
  }

  /** @param port where the claims are written; assumptions where the allocations are held meanwhile */
  FakeLoop claims(ClaimPort port, ClaimAssumptions assumptions) {
    claimPort = port;
    claimAssumptions = assumptions;
    return this;
  }

  /** @param evictions runs each preemption's evictions (the loop's preemptor threads) */
  FakeLoop preemption(Executor evictions, PreemptPort port) {
    preemptors = evictions;
    preemptPort = port;
    return this;
  }

  /** @param deletions runs the deletions of a preemptor's victims but the last (the loop's eviction threads) */
  FakeLoop victims(Executor deletions) {
    victims = deletions;
    return this;
  }

  /** @param lookup the pod group objects the loop knows; report hears what it tells of them */
  FakeLoop groups(PodGroupLookup lookup, GroupReportPort report) {
    groups = lookup;
    groupReport = report;
    return this;
  }

  LoopParts create() {
    var reporting = new Reporting(Map.of(), Runnable::run, listener);
    var injected =
        new LoopParts.Injected(
            clock, Runnable::run, bindPort, volumePort, claimPort, preemptors, victims, preemptPort, UNLIMITED, reporting,
            (nodes, nominations) -> ClusterSnapshot.of(nodes).withNominations(nominations), groups, groupReport,
            Duration.ZERO);
    var profiles = new Profiles(Map.of(settings.schedulerName(), finder), settings.watch());
    return LoopParts.create(
        settings, profiles, new GuardedMetrics(metrics), true, storage, claimAssumptions, injected);
  }
}
