package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.testcluster.TestCluster;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;
import org.jspecify.annotations.Nullable;

/**
 * One run: a fresh cluster; the workload's nodes and initial pods; one contestant started; then three phases,
 * each creating its pods with {@value #CREATORS} threads:
 *
 * <ol>
 *   <li>warm-up: pods placed, not measured;
 *   <li>stream: pods created at a steady rate while the contestant places them — latency from creation to
 *       bound, as the watch sees them, at the same arrival rate for every contestant;
 *   <li>backlog: the contestant is paused (SIGSTOP for a process), the backlog created, the contestant
 *       resumed — pods per second from resumption to the last bound, what it can do when creation is not the
 *       limit.
 * </ol>
 *
 * <p>For a DRA workload ({@link PodShape#claims}) the cluster runs kube-controller-manager (its resource claim
 * controller makes each pod's claim from the template), the DeviceClass, the template, each node's ResourceSlice
 * and the claims allocated beforehand are created with the nodes, and a {@link ClaimCheck} follows the claims and
 * the measured pods from before the contestant starts to the run's end.
 *
 * <p>For a {@link PodShape#GANG} workload the stream's and the backlog's pods are members of pod groups, each
 * phase's PodGroups created before its pods, the members interleaved across groups ({@link Workload#member});
 * a {@link GangTimes} on the same watch adds the groups' figures.
 *
 * <p>For a workload with pods that fit no node ({@link PodShape#neverFits}) the contestant counts its scheduling
 * attempts ({@link ScheduleAttempts}), read after the warm-up and after the backlog; a {@link Churn} creates
 * such pods (and for {@link PodShape#MIXED_CHURN} nodes and Services) from the stream's start to the backlog's
 * end, as {@link Preemptors} do; for {@link PodShape#LABEL_PATCH_FLOOD}, the flood comes between the warm-up and
 * the stream ({@link #flood}). None of those pods may be bound.
 */
final class BenchmarkRun {

  /** Threads creating objects; enough that creation outpaces every contestant on a small machine. */
  static final int CREATORS = 16;

  /**
   * How long the run waits, after the backlog, for another preemptor to be bound: kube-scheduler binds one
   * within seconds of its victims' deletion.
   */
  static final Duration PREEMPTOR_STALL = Duration.ofSeconds(15);

  /**
   * The least a gang workload's backlog waits for a first or next binding: kube-scheduler 1.37.2, resumed
   * before 1 000 interleaved groups of 8 on 5 000 nodes, bound nothing for about 90 s (one busy CPU) before it
   * bound the groups at about 15 a second (2 CPUs, 2026-11-27); the default stall of 60 s ended that run with
   * every backlog pod pending.
   */
  static final Duration GANG_BACKLOG_STALL = Duration.ofMinutes(5);

  /**
   * How long after the flood's last label patch the run waits before it reads the attempts again: longer than
   * kube-scheduler's longest backoff (10 s), so that a pod a patch had moved to the backoff queue would have been
   * tried by then.
   */
  static final Duration PATCH_SETTLE = Duration.ofSeconds(15);

  /** The time between two of the flood's label patches. */
  private static final Duration PATCH_INTERVAL = Duration.ofSeconds(1);

  /**
   * How long the attempt counts must stay still before the flood's patches: the flood's pods have each been tried
   * and set aside by then.
   */
  private static final Duration FLOOD_QUIET = Duration.ofSeconds(3);

  /** Pods created one at a time at the placer's start and again at the end of the run ({@link RunResult.Start}). */
  static final int ONE_BY_ONE = 10;

  /** How long the first pod may wait for a placer that just started. */
  private static final Duration FIRST_BIND = Duration.ofMinutes(3);

  /**
   * What a run needs besides its workload.
   *
   * @param stall a run ends when no measured pod has been bound for this long (the rest count as pending)
   * @param warmupPods pods placed, unmeasured, before the measured ones
   * @param streamRate pods created per second in the stream phase
   * @param kubeschedJvmFlags the JVM flags of this library's scheduler process ({@link
   *     SchedulerProcess#KUBESCHED_JVM_FLAGS} unless {@code --kubesched-jvm-flags} says)
   */
  record Settings(
      Path projectDir,
      Path kubeScheduler,
      Path jar,
      double qps,
      int burst,
      @Nullable Path jfrDir,
      Path workDir,
      Duration stall,
      int warmupPods,
      double streamRate,
      List<String> kubeschedJvmFlags) {

    Settings {
      kubeschedJvmFlags = List.copyOf(kubeschedJvmFlags);
    }

    /** These settings with {@code flag} after the scheduler's JVM flags. */
    Settings withKubeschedJvmFlag(String flag) {
      var flags = new ArrayList<>(kubeschedJvmFlags);
      flags.add(flag);
      return new Settings(
          projectDir, kubeScheduler, jar, qps, burst, jfrDir, workDir, stall, warmupPods, streamRate, flags);
    }

    /** These settings for a run that is not measured: its files in {@code dir}, no recording, at most this warm-up. */
    Settings unmeasured(Path dir, int maxWarmupPods) {
      return new Settings(
          projectDir, kubeScheduler, jar, qps, burst, null, dir, stall, Math.min(warmupPods, maxWarmupPods), streamRate,
          kubeschedJvmFlags);
    }
  }

  private final Settings settings;
  private final Workload workload;
  private final Contestant contestant;
  private final int repetition;
  private final int ceilingThreads;
  private final String name;
  private final PrintStream log;

  /**
   * @param ceilingThreads for {@link Contestant#CEILING}, its binding threads; 0 for the others
   * @throws IllegalArgumentException if {@code ceilingThreads} is positive for a scheduler or not for the ceiling
   */
  BenchmarkRun(
      Settings settings, Workload workload, Contestant contestant, int repetition, int ceilingThreads,
      PrintStream log) {
    if ((contestant == Contestant.CEILING) != (ceilingThreads > 0)) {
      throw new IllegalArgumentException(
          contestant.label() + " with " + ceilingThreads + " ceiling threads: the ceiling, and only it, has some");
    }
    this.settings = settings;
    this.workload = workload;
    this.contestant = contestant;
    this.repetition = repetition;
    this.ceilingThreads = ceilingThreads;
    this.name =
        workload.name() + "-" + contestant.schedulerName() + (ceilingThreads > 0 ? "-t" + ceilingThreads : "") + "-"
            + repetition;
    this.log = log;
  }

  RunResult run() throws IOException, InterruptedException, ExecutionException {
    long start = System.nanoTime();
    try (var cluster = startCluster();
        var creators = new Creators()) {
      var admin = cluster.admin();
      populate(admin, creators);
      progress("populated: %d nodes, %d bound pods", workload.nodes(), workload.initialPods());
      RunResult result;
      long streamStart;
      PodTimes stream;
      OneByOne cold;
      OneByOne warm;
      var claimCheck = workload.shape().claims() ? new ClaimCheck() : null;
      double firstAnswer = Double.NaN;
      if (contestant == Contestant.KUBESCHED) {
        firstAnswer = FirstAnswer.measure(
            settings.jar(), settings.kubeschedJvmFlags(), cluster.adminKubeconfig(),
            settings.workDir().resolve(name + "-first-answer.log"));
        progress("a bare JVM with kubesched's flags had the API server's first answer %.2f s after its launch", firstAnswer);
      }
      long placerStart = System.nanoTime();
      try (var claimWatches = claimCheck != null ? new ClaimWatches(admin, claimCheck) : null;
          var placer = startPlacer(cluster);
          var preemptors = workload.shape().preempts()
              ? new Preemptors(admin, workload, contestant.schedulerName())
              : null;
          var churn = workload.shape().churnInterval().isPresent()
              ? new Churn(admin, workload, contestant.schedulerName())
              : null) {
        cold = oneByOne(admin, placer, Workload.COLD);
        double firstBoundSeconds = (cold.firstBoundNanos() - placerStart) / 1e9;
        progress("started: first pod bound %.2f s after the start, then one by one p50 %.1f ms",
            firstBoundSeconds, PodTimes.percentile(cold.latenciesMillis(), 50));
        var warmup = phase(admin, creators, placer, Workload.WARMUP, settings.warmupPods(), 0, null);
        progress("warmed up: %d pods bound", warmup.boundCount());
        var flood = workload.floodPods() > 0 ? flood(admin, creators, placer) : RunResult.NeverFitting.NONE;
        double cpuAtStart = placer.cpuSeconds();
        var attemptsAtStart = placer.attempts();

        if (preemptors != null) {
          preemptors.resume();
        }
        if (churn != null) {
          churn.resume();
        }
        var streamGangs = gangTimes();
        createGroups(admin, creators, Workload.STREAM);
        streamStart = System.nanoTime();
        stream =
            phase(
                admin, creators, placer, Workload.STREAM, workload.streamPods(), settings.streamRate(), streamGangs);
        var latencies = stream.latenciesMillis();
        double createdPerSecond = workload.streamPods() / ((stream.createdNanos() - streamStart) / 1e9);
        progress("stream: %d bound, %.0f pods/s (created at %.0f/s), p50 %.0f ms, p99 %.0f ms",
            stream.boundCount(), stream.boundCount() / stream.spanSeconds(), createdPerSecond,
            PodTimes.percentile(latencies, 50), PodTimes.percentile(latencies, 99));

        if (preemptors != null) {
          preemptors.pause();
        }
        if (churn != null) {
          churn.pause();
        }
        placer.pause();
        var backlogGangs = gangTimes();
        var backlog = backlogGangs != null ? backlogGangs.pods() : new PodTimes();
        long resumed;
        HostSteal.Reading stealAtResumption;
        boolean stalled;
        createGroups(admin, creators, Workload.BACKLOG);
        try (var watch = watchRole(admin, Workload.BACKLOG, backlogGangs != null ? backlogGangs : backlog)) {
          creators.run(workload.pods(), i -> create(admin, pod(Workload.BACKLOG, i)));
          progress("backlog of %d pods created; resuming", workload.pods());
          resumed = System.nanoTime();
          stealAtResumption = HostSteal.read();
          placer.resume();
          if (preemptors != null) {
            preemptors.resume();
          }
          if (churn != null) {
            churn.resume();
          }
          var stall = settings.stall();
          if (workload.shape().gangs() && stall.compareTo(GANG_BACKLOG_STALL) < 0) {
            stall = GANG_BACKLOG_STALL;
          }
          stalled = !awaitBound(backlog, workload.pods(), placer, stall);
        }
        double hostSteal = HostSteal.read().shareSince(stealAtResumption);
        double backlogSeconds = (backlog.lastBoundNanos(resumed) - resumed) / 1e9;
        var gangs = gangs(streamGangs, backlogGangs, resumed);
        double cpu = placer.cpuSeconds();
        var attempts = workload.shape().neverFits() ? placer.attempts().since(attemptsAtStart) : RunResult.Attempts.NONE;
        if (churn != null) {
          churn.pause();
        }
        var preemption = preemptors == null ? RunResult.Preemption.NONE : awaitPreemptors(preemptors, placer);
        if (stalled) {
          // The run's measure is taken; a placer still retrying what it could not bind may keep the API server
          // from answering the runner (kube-scheduler at 15000-nodes-daemonset on 2 CPUs), so it is stopped.
          placer.pause();
          progress("the backlog stalled: the placer is stopped for the rest of the run, the pods at the end skipped");
        }
        var spread = spreadOf(admin);
        spread.constraint().ifPresent(check -> progress("placement: %s", check));
        var neverFitting = neverFitting(churn, flood, spread, attempts, stream.boundCount() + backlog.boundCount());
        if (preemptors != null) {
          int measuredCreated = ONE_BY_ONE + settings.warmupPods() + workload.streamPods() + workload.pods();
          preemption =
              new RunResult.Preemption(
                  preemption.created(), preemption.bound(), preemption.p50Millis(), preemption.p99Millis(),
                  workload.initialPods() - spread.initialLeft() + measuredCreated - spread.measuredLeft(),
                  spread.terminating());
          progress(
              "preemptors: %d of %d bound, p50 %.0f ms, p99 %.0f ms; victims: %d deleted, %d terminating",
              preemption.bound(), preemption.created(), preemption.p50Millis(), preemption.p99Millis(),
              preemption.victimsDeleted(), preemption.victimsTerminating());
        }
        warm = stalled ? new OneByOne(0, new PodTimes(), new double[0]) : oneByOne(admin, placer, Workload.WARM);
        double warmP50 = PodTimes.percentile(warm.latenciesMillis(), 50);
        if (!stalled) {
          progress("at the end: one by one p50 %.1f ms", warmP50);
        }
        int seenBound =
            cold.times().boundCount() + warmup.boundCount() + stream.boundCount() + backlog.boundCount()
                + warm.times().boundCount();
        var claims = claimCheck != null ? awaitClaims(claimCheck, seenBound) : RunResult.Claims.NONE;
        result =
            new RunResult(
                workload,
                contestant,
                repetition,
                ceilingThreads,
                stream.boundCount() + backlog.boundCount(),
                spread.pending(),
                backlog.boundCount() / backlogSeconds,
                stream.boundCount() / stream.spanSeconds(),
                createdPerSecond,
                PodTimes.percentile(latencies, 50),
                PodTimes.percentile(latencies, 90),
                PodTimes.percentile(latencies, 99),
                cpu - cpuAtStart,
                cpu,
                placer.peakRssMiB(),
                spread.cpu(),
                spread.memory(),
                preemption,
                gangs,
                new RunResult.Start(
                    firstBoundSeconds, PodTimes.percentile(cold.latenciesMillis(), 50), warmP50, firstAnswer),
                claims,
                attempts,
                neverFitting,
                hostSteal);
        progress(
            "backlog: %.0f pods/s (host steal %.0f %%); %d pending; CPU %.1f s (process %.1f s), peak RSS %.0f MiB;"
                + " run took %.0f s",
            result.podsPerSecond(), 100 * result.hostSteal(), result.pending(), result.cpuSeconds(),
            result.processCpuSeconds(), result.peakRssMiB(), (System.nanoTime() - start) / 1e9);
      }
      if (contestant == Contestant.KUBESCHED) {
        // Each one-by-one phase without its first pod, as in the table (after the start, it waited for the start-up).
        logPathTimes("after the start", cold.firstBoundNanos() + 1, cold.times(), cold.latenciesMillis());
        logPathTimes("stream", streamStart, stream, stream.latenciesMillis());
        logPathTimes("at the end", warm.firstBoundNanos() + 1, warm.times(), warm.latenciesMillis());
      }
      return result;
    }
  }

  /**
   * Logs where a phase's pods spent their time inside this library's scheduler ({@link PathTimes}, written
   * by its process when it was terminated), beside the runner's own creation-to-bound latencies.
   */
  private void logPathTimes(String phase, long phaseStart, PodTimes phaseTimes, double[] latenciesMillis)
      throws IOException {
    var file = SchedulerProcess.pathTimes(settings.workDir(), name);
    if (!Files.exists(file)) {
      progress("the scheduler wrote no %s", file);
      return;
    }
    var pods = PathTimes.read(file, phaseStart, phaseTimes.lastBoundNanos(phaseStart));
    progress("%s: %s; %s", phase, PathTimes.summary(pods, latenciesMillis),
        PathTimes.aroundTheScheduler(pods, phaseTimes.createdAndBound()));
  }

  /**
   * Stops creating preemptors and waits until every one created is bound or none has been bound for {@link
   * #PREEMPTOR_STALL} (or the stall time, if shorter): a scheduler that does not preempt costs the run that
   * long, no more. The bind ceiling does not place preemptors (it watches the measured pods' namespace only),
   * so it is not waited for.
   *
   * @return the preemptors' figures; the victims are counted later, from the listing
   */
  private RunResult.Preemption awaitPreemptors(Preemptors preemptors, Placer placer)
      throws InterruptedException, IOException {
    preemptors.pause();
    var times = preemptors.times();
    int created = preemptors.attempted() - preemptors.failed();
    if (preemptors.failed() > 0) {
      progress("%d preemptors were refused by the API server; the last: %s", preemptors.failed(),
          preemptors.lastFailure());
    }
    if (contestant != Contestant.CEILING) {
      progress("waiting for %d preemptors to be bound (%d are)", created, times.boundCount());
      var stall = settings.stall().compareTo(PREEMPTOR_STALL) < 0 ? settings.stall() : PREEMPTOR_STALL;
      awaitBound(times, created, placer, stall);
    }
    var latencies = times.latenciesMillis();
    return new RunResult.Preemption(
        created, times.boundCount(), PodTimes.percentile(latencies, 50), PodTimes.percentile(latencies, 99), 0, 0);
  }

  /**
   * The label-patch flood, between the warm-up and the stream: {@link Workload#floodPods} pods that fit no node
   * created at once; once the contestant has tried each (as many {@code unschedulable} attempts) and its counts
   * have stayed still for {@link #FLOOD_QUIET}, {@value PodShape#FLOOD_PATCHES} label-only patches of node 0,
   * {@link #PATCH_INTERVAL} apart; then {@link #PATCH_SETTLE}, and the attempts made since the first patch. The
   * bind ceiling counts no attempts: its flood is created, patched and left, unmeasured.
   *
   * @return the flood's figures, its pods' bindings left to the end of the run ({@link #neverFitting})
   */
  private RunResult.NeverFitting flood(KubernetesClient admin, Creators creators, Placer placer)
      throws InterruptedException, ExecutionException, IOException {
    int pods = workload.floodPods();
    var created = placer.attempts();
    creators.run(pods, i -> create(admin, workload.neverFittingPod(i, contestant.schedulerName())));
    var before = awaitTried(placer, created, pods);
    progress(
        "flood: %d pods that fit no node created; %.0f unschedulable attempts since", pods,
        before.since(created).unschedulable());
    var node = Workload.nodeName(0);
    for (int k = 1; k <= PodShape.FLOOD_PATCHES; k++) {
      var value = Integer.toString(k);
      admin.nodes().withName(node).edit(
          n -> new NodeBuilder(n).editMetadata().addToLabels(PodShape.PATCHED_LABEL, value).endMetadata().build());
      Thread.sleep(k < PodShape.FLOOD_PATCHES ? PATCH_INTERVAL.toMillis() : PATCH_SETTLE.toMillis());
    }
    var patchAttempts = placer.attempts().since(before);
    progress(
        "flood: %d label patches of %s cost %.0f attempts (%.0f unschedulable, %.0f scheduled, %.0f error)",
        PodShape.FLOOD_PATCHES, node, patchAttempts.total(), patchAttempts.unschedulable(), patchAttempts.scheduled(),
        patchAttempts.error());
    return new RunResult.NeverFitting(pods, 0, PodShape.FLOOD_PATCHES, patchAttempts.total());
  }

  /**
   * Waits until the placer has made at least {@code pods} unschedulable attempts since {@code since} and its counts
   * have then stayed still for {@link #FLOOD_QUIET}, or none has changed for the stall time.
   *
   * @return its counts then; {@link RunResult.Attempts#NONE} at once for a placer that does not count
   */
  private RunResult.Attempts awaitTried(Placer placer, RunResult.Attempts since, int pods)
      throws IOException, InterruptedException {
    var last = placer.attempts();
    if (Double.isNaN(last.total())) {
      return last;
    }
    long changed = System.nanoTime();
    while (true) {
      placer.check();
      Thread.sleep(200);
      var now = placer.attempts();
      long at = System.nanoTime();
      if (!now.equals(last)) {
        last = now;
        changed = at;
      } else if (now.since(since).unschedulable() >= pods && at - changed > FLOOD_QUIET.toNanos()) {
        return now;
      } else if (at - changed > settings.stall().toNanos()) {
        progress("flood: no attempt for %d s with %.0f of %d pods tried; patching anyway", settings.stall().toSeconds(),
            now.since(since).unschedulable(), pods);
        return now;
      }
    }
  }

  /**
   * The figures of the pods that fit no node, logged: those the churn's watch saw (created and bound), or the flood's
   * (bound: seen so in the listing at the end); for a scheduler, the attempts per measured pod and on those pods.
   */
  private RunResult.NeverFitting neverFitting(
      @Nullable Churn churn, RunResult.NeverFitting flood, Spread spread, RunResult.Attempts attempts,
      int measuredBound) {
    if (!workload.shape().neverFits()) {
      return RunResult.NeverFitting.NONE;
    }
    if (churn != null && churn.failed() > 0) {
      progress("%d churn requests were refused by the API server; the last: %s", churn.failed(), churn.lastFailure());
    }
    var result =
        churn != null
            ? new RunResult.NeverFitting(
                churn.times().seenCount(), Math.max(churn.times().boundCount(), spread.neverFittingBound()), 0,
                Double.NaN)
            : new RunResult.NeverFitting(flood.created(), spread.neverFittingBound(), flood.patches(),
                flood.patchAttempts());
    progress(
        "pods that fit no node: %d created, %d bound%s; attempts over stream and backlog: %.0f scheduled, %.0f error"
            + " (%.2f per measured pod), %.0f unschedulable",
        result.created(), result.bound(), result.bound() > 0 && contestant != Contestant.CEILING ? " (A BUG)" : "",
        attempts.scheduled(), attempts.error(), attempts.measured() / measuredBound, attempts.unschedulable());
    return result;
  }

  /** A {@link GangTimes} for a phase of a gang workload, else null. */
  private @Nullable GangTimes gangTimes() {
    return workload.shape().gangs() ? new GangTimes(workload.groupSize(), new PodTimes()) : null;
  }

  /** Creates the PodGroups of phase {@code role}, if it has any. */
  private void createGroups(KubernetesClient admin, Creators creators, String role)
      throws InterruptedException, ExecutionException {
    creators.run(workload.groups(role), g -> admin.resource(workload.podGroup(role, g)).create());
  }

  /** The groups' figures of a gang workload from its stream's and backlog's watches, logged. */
  private RunResult.Gangs gangs(@Nullable GangTimes stream, @Nullable GangTimes backlog, long resumed) {
    if (stream == null || backlog == null) {
      return RunResult.Gangs.NONE;
    }
    var latencies = stream.latenciesMillis();
    var gangs =
        new RunResult.Gangs(
            workload.groups(Workload.STREAM) + workload.groups(Workload.BACKLOG),
            stream.whole() + backlog.whole(),
            stream.partlyBound() + backlog.partlyBound(),
            Math.max(stream.mostPartlyBound(), backlog.mostPartlyBound()),
            stream.boundEarly() + backlog.boundEarly(),
            stream.withoutGroup() + backlog.withoutGroup(),
            backlog.whole() / ((backlog.lastWholeNanos(resumed) - resumed) / 1e9),
            PodTimes.percentile(latencies, 50),
            PodTimes.percentile(latencies, 99));
    progress(
        "groups: %d of %d bound whole, %d partly bound (at most %d at once), %d members bound before their group"
            + " was complete, %d pods without a group; backlog %.1f groups/s; stream group p50 %.0f ms, p99 %.0f ms",
        gangs.whole(), gangs.groups(), gangs.partlyBound(), gangs.mostPartlyBound(), gangs.boundEarly(),
        gangs.withoutGroup(), gangs.groupsPerSecond(), gangs.p50Millis(), gangs.p99Millis());
    return gangs;
  }

  private void populate(KubernetesClient admin, Creators creators) throws InterruptedException, ExecutionException {
    for (var namespace : workload.namespaces()) {
      var object = new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build();
      admin.namespaces().resource(object).create();
    }
    if (workload.shape().preempts()) {
      admin.resource(Workload.preemptorPriorityClass()).create();
    }
    if (workload.shape().churnInterval().isPresent()) {
      admin.resource(Workload.churnPriorityClass()).create();
    }
    creators.run(workload.nodes(), i -> admin.nodes().resource(workload.node(i)).create());
    creators.run(workload.initialPods(), i -> create(admin, workload.initialPod(i)));
    if (workload.shape().claims()) {
      admin.resource(Workload.deviceClass()).create();
      admin.resource(workload.claimTemplate()).create();
      creators.run(workload.nodes(), i -> admin.resource(Workload.resourceSlice(i)).create());
      creators.run(
          workload.initialClaims(),
          i -> {
            var claim = admin.resource(Workload.initialClaim(i)).create();
            claim.setStatus(new ResourceClaimStatusBuilder().withAllocation(workload.initialAllocation(i)).build());
            admin.resource(claim).updateStatus();
          });
    }
  }

  /** How long a DRA run waits, at its end, for the claim watch to show every bound pod's claims allocated. */
  private static final Duration CLAIMS_SETTLE = Duration.ofSeconds(10);

  /**
   * The claim check's figures once its watches have caught up with the phases' (every one of the {@code seenBound}
   * pods the phases saw bound recorded, and, but for the bind ceiling, which allocates nothing, every claim seen
   * allocated), or after {@link #CLAIMS_SETTLE}; logged.
   */
  private RunResult.Claims awaitClaims(ClaimCheck check, int seenBound) throws InterruptedException {
    long deadline = System.nanoTime() + CLAIMS_SETTLE.toNanos();
    var claims = check.result();
    while ((claims.pods() < seenBound || !claims.kept() && contestant != Contestant.CEILING)
        && System.nanoTime() < deadline) {
      Thread.sleep(200);
      claims = check.result();
    }
    if (claims.pods() < seenBound) {
      progress("the claim check saw %d of the %d pods the phases saw bound", claims.pods(), seenBound);
    }
    progress(
        "claims: %d pods seen bound, %d claims; %d unallocated%s, %d on another node, %d times a device held twice",
        claims.pods(), claims.claims(), claims.unallocated(),
        contestant == Contestant.CEILING ? " (the bind ceiling allocates nothing)" : "", claims.elsewhere(),
        claims.sharedDevices());
    return claims;
  }

  /**
   * The watches of a DRA run's {@link ClaimCheck}, open from before the placer starts to the run's end: every
   * namespace's claims and the measured pods; for {@link PodShape#deletesBound}, each measured pod deleted (grace
   * period 0: no kubelet ends it) once seen bound, by threads of its own, so that the watch thread never waits for
   * the API server.
   */
  private final class ClaimWatches implements AutoCloseable {

    private final ExecutorService deleters = Executors.newFixedThreadPool(4);
    private final Watch claims;
    private final Watch pods;
    private volatile boolean closed;

    ClaimWatches(KubernetesClient admin, ClaimCheck check) {
      claims = ResumingWatch.open(
          admin.resources(ResourceClaim.class).inAnyNamespace(), check.claims(), check::claimsListed);
      var podWatcher = check.pods(pod -> {
        if (workload.shape().deletesBound()) {
          deleters.execute(() -> delete(admin, pod));
        }
      });
      pods = ResumingWatch.open(admin.pods().inNamespace(workload.namespace()), podWatcher,
          listed -> listed.forEach(pod -> podWatcher.eventReceived(Watcher.Action.MODIFIED, pod)));
    }

    private void delete(KubernetesClient admin, Pod pod) {
      try {
        admin.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
            .withGracePeriod(0).delete();
      } catch (KubernetesClientException e) {
        // Deletions still queued at the run's end are cut short (the bind ceiling binds faster than they go).
        if (!closed) {
          progress("deleting %s failed: %s", pod.getMetadata().getName(), e.getMessage());
        }
      }
    }

    @Override
    public void close() {
      closed = true;
      pods.close();
      claims.close();
      deleters.shutdownNow();
    }
  }

  /**
   * A fresh kube-apiserver and etcd for this run alone, so that no run sees another's objects, watch cache
   * or etcd history.
   *
   * <p>The TaintNodesByCondition admission plugin is off: it taints every new Node {@code
   * node.kubernetes.io/not-ready:NoSchedule}, which the node lifecycle controller of kube-controller-manager
   * removes once the kubelet reports Ready. Neither runs here, so the plugin is left out instead, and nodes
   * are created Ready and untainted, as they would be in a running cluster. A shape may need more flags
   * ({@link PodShape#apiServerFlags}). The runner's own requests may
   * wait a minute for an answer (fabric8's default is ten seconds) while 16 creator threads share the client.
   */
  private TestCluster startCluster() throws IOException, InterruptedException {
    var flags = new ArrayList<String>();
    flags.add("--disable-admission-plugins=TaintNodesByCondition");
    flags.addAll(workload.shape().apiServerFlags());
    var builder =
        TestCluster.builder(settings.projectDir())
            .stateDirectory(settings.workDir().resolve(name))
            .apiServerFlags(flags.toArray(String[]::new))
            .requestTimeout(Duration.ofSeconds(60));
    if (workload.shape().claims()) {
      // Its resource claim controller makes each pod's claim from the template and names it in the pod's status,
      // two writes a pod: with the default client limit (20 a second) it held both schedulers to 10 pods a second.
      // scheduler_perf runs that controller with the schedulers' limits, as here.
      builder
          .controllerManager()
          .controllerManagerFlags(
              "--kube-api-qps=" + Math.round(settings.qps()), "--kube-api-burst=" + settings.burst());
    }
    return builder.start();
  }

  private Placer startPlacer(TestCluster cluster) throws IOException {
    return switch (contestant) {
      case KUBE_SCHEDULER, KUBE_SCHEDULER_SAME_PLUGINS -> SchedulerProcess.kubeScheduler(
          settings.kubeScheduler(), kubeSchedulerConfig(contestant, workload, cluster.adminKubeconfig(), settings),
          workload.shape().kubeSchedulerFlags(), workload.shape().neverFits(), settings.workDir(), name);
      case KUBESCHED -> SchedulerProcess.kubesched(
          settings.jar(), cluster.adminKubeconfig(), contestant.schedulerName(), settings.qps(),
          settings.burst(), workload.shape().gangs(), settings.kubeschedJvmFlags(), workload.shape().neverFits(),
          settings.jfrDir(),
          settings.workDir(), name);
      case CEILING ->
          new CeilingBinder(cluster.adminKubeconfig(), workload.nodes(), workload.namespace(), ceilingThreads);
    };
  }

  /**
   * The configuration file of a kube-scheduler contestant on {@code workload}: kube's default profile, or the one
   * with {@code DefaultPolicy}'s plugins ({@code GangScheduling} too for a gang workload, whose kube-scheduler runs
   * with the {@code GenericWorkload} gate).
   */
  static String kubeSchedulerConfig(Contestant contestant, Workload workload, Path kubeconfig, Settings settings) {
    var profile =
        contestant == Contestant.KUBE_SCHEDULER_SAME_PLUGINS
            ? KubeSchedulerConfig.Profile.SAME_PLUGINS
            : KubeSchedulerConfig.Profile.DEFAULT;
    return KubeSchedulerConfig.file(
        kubeconfig, settings.qps(), settings.burst(), contestant.schedulerName(), profile,
        KubeSchedulerConfig.samePlugins(DefaultPolicy.create(), workload.shape().gangs()));
  }

  /**
   * Creates {@code count} pods of a phase ({@code perSecond} a second, or as fast as the creators can when 0)
   * while the placer runs, and waits until
   * they are bound or the placer stalls. The first phase, the warm-up, also waits for the placer to sync
   * its caches and, in a JVM, to compile its hot paths; its cost shows in the process CPU figure. A placer
   * that binds no pod within three minutes fails the run.
   *
   * @param gangs for a phase of pod groups, where the watch's events go (it passes them on to the phase's
   *     {@link PodTimes}, which this returns); null otherwise
   */
  private PodTimes phase(
      KubernetesClient admin,
      Creators creators,
      Placer placer,
      String role,
      int count,
      double perSecond,
      @Nullable GangTimes gangs)
      throws InterruptedException, IOException, ExecutionException {
    var times = gangs != null ? gangs.pods() : new PodTimes();
    try (var watch = watchRole(admin, role, gangs != null ? gangs : times)) {
      creators.run(count, perSecond, i -> create(admin, pod(role, i)));
      times.markCreated();
      long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      while (times.boundCount() == 0) {
        placer.check();
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              contestant.label() + " bound no pod within 3 minutes; its log ends:\n" + placer.tail());
        }
        Thread.sleep(100);
      }
      awaitBound(times, count, placer);
    }
    return times;
  }

  /**
   * What {@link #oneByOne} saw: when its first pod was seen bound, its watch, and the latencies of the other
   * pods, sorted.
   */
  private record OneByOne(long firstBoundNanos, PodTimes times, double[] latenciesMillis) {}

  /**
   * Creates {@link #ONE_BY_ONE} pods of phase {@code role}, each once the one before is seen bound, so that
   * each meets an idle placer.
   */
  private OneByOne oneByOne(KubernetesClient admin, Placer placer, String role)
      throws InterruptedException, IOException {
    var times = new PodTimes();
    try (var watch = watchRole(admin, role, times)) {
      for (int i = 0; i < ONE_BY_ONE; i++) {
        create(admin, pod(role, i));
        awaitBound(times, i + 1, placer, i == 0 ? FIRST_BIND : settings.stall());
      }
    }
    var first = pod(role, 0).getMetadata().getName();
    long firstBound = times.boundNanos(first);
    var others = times.latenciesMillis(name -> !name.equals(first));
    return new OneByOne(firstBound, times, others);
  }

  /** The {@code i}-th pod of phase {@code role}: a single pod, or the member {@link Workload#member} says. */
  private Pod pod(String role, int i) {
    return workload.groups(role) > 0
        ? workload.groupMember(role, workload.member(role, i), contestant.schedulerName())
        : workload.measuredPod(String.format("%s-%05d", role, i), contestant.schedulerName(), role);
  }

  private Watch watchRole(KubernetesClient admin, String role, Watcher<Pod> watcher) {
    return ResumingWatch.open(admin.pods().inNamespace(workload.namespace()).withLabel(Workload.ROLE_LABEL, role),
        watcher, listed -> listed.forEach(pod -> watcher.eventReceived(Watcher.Action.MODIFIED, pod)));
  }

  private void awaitBound(PodTimes times, int expected, Placer placer) throws InterruptedException, IOException {
    awaitBound(times, expected, placer, settings.stall());
  }

  /** @return whether all {@code expected} pods were seen bound; false if none was for {@code stall} */
  private boolean awaitBound(PodTimes times, int expected, Placer placer, Duration stall)
      throws InterruptedException, IOException {
    int lastCount = -1;
    long lastProgress = System.nanoTime();
    long lastReport = lastProgress;
    while (true) {
      placer.check();
      int count = times.boundCount();
      long now = System.nanoTime();
      if (count >= expected) {
        return true;
      }
      if (count != lastCount) {
        lastCount = count;
        lastProgress = now;
      } else if (now - lastProgress > stall.toNanos()) {
        progress("no pod bound for %d s; %d of %d are still pending", stall.toSeconds(),
            expected - count, expected);
        return false;
      }
      if (now - lastReport > Duration.ofSeconds(10).toNanos()) {
        lastReport = now;
        progress("%d of %d bound", count, expected);
      }
      Thread.sleep(50);
    }
  }

  /**
   * {@link Spread#of}, asked again up to {@value #SPREAD_TRIES} times, {@link #SPREAD_RETRY} apart, while the
   * API server does not answer (it may still be working through what a stalled placer sent it).
   */
  private Spread spreadOf(KubernetesClient admin) throws InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        return Spread.of(admin, workload);
      } catch (KubernetesClientException e) {
        if (attempt == SPREAD_TRIES) {
          throw e;
        }
        progress("listing the nodes and pods failed (%s); again in %d s", e.getMessage(), SPREAD_RETRY.toSeconds());
        Thread.sleep(SPREAD_RETRY.toMillis());
      }
    }
  }

  private static final int SPREAD_TRIES = 4;
  private static final Duration SPREAD_RETRY = Duration.ofSeconds(20);

  private static void create(KubernetesClient admin, Pod pod) {
    admin.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).create();
  }

  private void progress(String format, Object... args) {
    log.printf(
        "[%s #%d %s%s] %s%n", workload.name(), repetition, contestant.label(),
        ceilingThreads > 0 ? " " + ceilingThreads + " threads" : "", String.format(format, args));
  }

  /**
   * The placement left behind: the spread of per-node utilisation over all nodes (initial, warm-up, measured
   * pods and preemptors counted), the measured pods left pending and, for a shape with an inter-pod
   * constraint, whether the placement kept it ({@link PodShape#placementCheck}: logged, not tabled); and, to
   * count preemption's victims, the initial and measured pods still there and the pods terminating.
   *
   * @param initialLeft initial pods still there (terminating or not)
   * @param measuredLeft warm-up, stream and backlog pods still there (terminating or not)
   * @param terminating pods of the workload's namespaces with a deletion timestamp
   * @param neverFittingBound pods that fit no node ({@value PodShape#NEVER_FITS}) bound to a node
   */
  record Spread(
      double cpu,
      double memory,
      int pending,
      Optional<String> constraint,
      int initialLeft,
      int measuredLeft,
      int terminating,
      int neverFittingBound) {

    static Spread of(KubernetesClient admin, Workload workload) {
      var allocatable = new HashMap<String, long[]>();
      var zones = new HashMap<String, String>();
      for (Node node : admin.nodes().list().getItems()) {
        var a = node.getStatus().getAllocatable();
        if (a == null || !a.containsKey("cpu")) {
          continue; // a churn node: no room for any pod
        }
        var labels = node.getMetadata().getLabels();
        if (labels != null && labels.containsKey(PodShape.ZONE)) {
          zones.put(node.getMetadata().getName(), labels.get(PodShape.ZONE));
        }
        allocatable.put(node.getMetadata().getName(), new long[] {milli(a.get("cpu")), units(a.get("memory"))});
      }
      var requested = new HashMap<String, long[]>();
      int pending = 0;
      int initialLeft = 0;
      int measuredLeft = 0;
      int terminating = 0;
      int neverFittingBound = 0;
      var pods = new ArrayList<Pod>();
      for (var namespace : workload.namespaces()) {
        pods.addAll(admin.pods().inNamespace(namespace).list().getItems());
      }
      for (Pod pod : pods) {
        var labels = pod.getMetadata().getLabels();
        var role = labels == null ? null : labels.get(Workload.ROLE_LABEL);
        if (role == null) {
          initialLeft++;
        } else if (!role.equals(PodShape.PREEMPTOR) && !role.equals(PodShape.NEVER_FITS)) {
          measuredLeft++;
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
          terminating++;
        }
        var node = pod.getSpec().getNodeName();
        if (node == null || node.isEmpty()) {
          pending += Workload.STREAM.equals(role) || Workload.BACKLOG.equals(role) ? 1 : 0;
          continue;
        }
        neverFittingBound += PodShape.NEVER_FITS.equals(role) ? 1 : 0;
        var sum = requested.computeIfAbsent(node, n -> new long[2]);
        for (var container : pod.getSpec().getContainers()) {
          var resources = container.getResources();
          Map<String, Quantity> r =
              resources == null || resources.getRequests() == null ? Map.of() : resources.getRequests();
          sum[0] += r.containsKey("cpu") ? milli(r.get("cpu")) : 0;
          sum[1] += r.containsKey("memory") ? units(r.get("memory")) : 0;
        }
      }
      var cpu = new ArrayList<Double>();
      var memory = new ArrayList<Double>();
      for (Map.Entry<String, long[]> e : allocatable.entrySet()) {
        var used = requested.getOrDefault(e.getKey(), new long[2]);
        cpu.add(100.0 * used[0] / e.getValue()[0]);
        memory.add(100.0 * used[1] / e.getValue()[1]);
      }
      return new Spread(
          stddev(cpu), stddev(memory), pending, workload.shape().placementCheck(zones, pods), initialLeft,
          measuredLeft, terminating, neverFittingBound);
    }

    private static long milli(Quantity q) {
      return q.getNumericalAmount().multiply(BigDecimal.valueOf(1000)).longValue();
    }

    private static long units(Quantity q) {
      return q.getNumericalAmount().longValue();
    }

    static double stddev(List<Double> values) {
      double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
      double squares = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
      return values.isEmpty() ? 0 : Math.sqrt(squares / values.size());
    }
  }

  /** A pool of {@value #CREATORS} threads running one action per index. */
  private static final class Creators implements AutoCloseable {

    private final ExecutorService pool = Executors.newFixedThreadPool(CREATORS);

    void run(int count, IntConsumer action) throws InterruptedException, ExecutionException {
      run(count, 0, action);
    }

    /**
     * @param perSecond when positive, action {@code i} starts no earlier than {@code i / perSecond} seconds
     *     after the first: a steady arrival rate, whatever the contestant does to the API server's speed
     */
    void run(int count, double perSecond, IntConsumer action) throws InterruptedException, ExecutionException {
      long start = System.nanoTime();
      var futures = new ArrayList<Future<?>>();
      for (int t = 0; t < CREATORS; t++) {
        int first = t;
        futures.add(
            pool.submit(
                () -> {
                  for (int i = first; i < count; i += CREATORS) {
                    if (perSecond > 0) {
                      long due = start + (long) (i * 1e9 / perSecond);
                      for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                        LockSupport.parkNanos(wait);
                      }
                    }
                    action.accept(i);
                  }
                }));
      }
      for (var future : futures) {
        future.get();
      }
    }

    @Override
    public void close() {
      pool.shutdownNow();
    }
  }
}
