package io.kubesched.drills;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.policy.config.SchedulerConfiguration;
import io.kubesched.policy.config.SchedulerProfile;
import io.kubesched.testcluster.TestCluster;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The leader-kill drill: the scheduler as two processes (kubesched-server's jar, {@link Replica}) with leader
 * election on, configured as {@code deploy/} configures the Deployment (the ConfigMap's {@code config.yaml},
 * unchanged: Lease {@code kubesched/kubesched}, kube's default 15 s lease, 10 s renew deadline, 2 s retry), both
 * as the restricted identity of docs/operations.md's RBAC. For each trial a {@link PodStream} for the first profile runs; in the
 * middle of a burst (a second stream of {@value #BURST_PODS} pods at {@value #BURST_RATE} pods/s) the replica
 * that holds the Lease is sent SIGKILL; the runner measures the takeover (to the Lease held by the
 * other replica, and to the first pod bound after the kill), waits for the system to settle, checks the {@link
 * Invariants} (without the cache comparison: the scheduler's cache is in another process, and kubesched-server
 * serves no view of it) and the API server's audit of binding POSTs ({@link BindingAudit}), then starts a fresh
 * replica so that two run again. Runs on the caller's thread.
 */
final class LeaderKillDrill {

  /** The name {@code --faults} selects this drill by. */
  static final String NAME = "leader-kill";

  /** The ConfigMap whose {@code config.yaml} the replicas run with. */
  static final String DEPLOYED_CONFIG = "deploy/03-config.yaml";

  /**
   * The burst the leader is killed in: a second {@link PodStream} at this rate, of {@link #BURST_PODS} pods, the
   * kill after the first half, so that the leader has decisions and bindings in flight when it dies.
   */
  static final double BURST_RATE = 25;

  /**
   * A count, not a time: under load the stream's thread falls behind and catches up, and a burst timed at 2 s
   * once created 122 pods, which with the 4 pods/s stream over a 15 s takeover filled the default 4 nodes' CPU.
   */
  static final int BURST_PODS = 40;

  /** The longest wait for each half of the burst to be created. */
  static final Duration BURST_LEAD = Duration.ofSeconds(1);

  /** Where {@code scripts/drills.sh} has scheduler-server build its shaded jar. */
  static final String SERVER_JAR = "scheduler-server/target/kubesched-server.jar";

  /**
   * @param project the checkout: {@code tools/test-cluster/cluster.sh}, the RBAC of docs/operations.md, {@value #DEPLOYED_CONFIG}
   *     and {@value #SERVER_JAR}
   * @param trials how many times the leader is killed
   * @param nodes how many nodes (4 CPU, 8 GiB, 110 pods each)
   * @param rate pods the stream creates per second
   * @param before how long the stream runs before the kill
   * @param after how long the stream runs on after the takeover
   * @param settle how long to wait for the takeover, for the system to settle, for a replica to be ready
   */
  record Settings(Path project, int trials, int nodes, double rate, Duration before, Duration after, Duration settle) {}

  /** What the drill found: each trial, and its takeover. */
  record Outcome(List<TrialResult> trials, List<Takeover> takeovers) {}

  private final Settings settings;
  private final PrintStream log;
  private final List<Replica> replicas = new ArrayList<>();
  private int started;

  LeaderKillDrill(Settings settings, PrintStream log) {
    this.settings = settings;
    this.log = log;
  }

  /**
   * @throws IllegalStateException if the server jar is missing, or a replica does not get ready or does not
   *     campaign within the settle timeout
   */
  Outcome run() throws Exception {
    var jar = settings.project().resolve(SERVER_JAR);
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing: build it with ./mvnw -q -B package -pl scheduler-server -am"
          + " -DskipTests (scripts/drills.sh does)");
    }
    var work = Files.createTempDirectory("drills-leader-kill-");
    log.printf("leader-kill: the replicas' logs and the audit log are in %s%n", work);
    var policy = Files.writeString(work.resolve("audit-policy.yaml"), AuditLog.POLICY);
    var auditFile = work.resolve("audit.log");
    var audit = new AuditLog(auditFile);
    try (var cluster = TestCluster.builder(settings.project())
        .apiServerFlags(audit.apiServerFlags(policy).toArray(String[]::new)).start()) {
      var admin = cluster.admin();
      var configText = deployedConfig(admin);
      var config = Files.writeString(work.resolve("config.yaml"), configText);
      var parsed = SchedulerConfiguration.parse(configText, DEPLOYED_CONFIG);
      var election = parsed.leaderElection();
      if (!election.leaderElect()) {
        throw new IllegalStateException(DEPLOYED_CONFIG + " has leader election off: nothing to take over");
      }
      var schedulerName = parsed.profiles().stream().map(SchedulerProfile::schedulerName).findFirst().orElseThrow();
      log.printf("leader-kill: pods for %s; Lease %s/%s, lease duration %s, renew deadline %s, retry period %s%n",
          schedulerName, election.resourceNamespace(), election.resourceName(), election.leaseDuration(),
          election.renewDeadline(), election.retryPeriod());
      cluster.applyDocumentedRbac();
      for (var namespace : List.of(DrillRun.NAMESPACE, election.resourceNamespace())) {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
            .serverSideApply();
      }
      for (int i = 0; i < settings.nodes(); i++) {
        DrillRun.createReadyNode(admin, "node-" + i);
      }
      var lease = new LeaseRef(election.resourceNamespace(), election.resourceName());
      try (var history = new PodHistory(admin, DrillRun.NAMESPACE)) {
        var first = startReady(cluster, jar, config, work);
        if (!DrillRun.waitFor(settings.settle(), () -> holder(lease.get(admin)).equals(identityOf(first)))) {
          throw new IllegalStateException(first + " did not take the Lease within " + settings.settle()
              + "; its log ends:\n" + first.tail(40));
        }
        startReady(cluster, jar, config, work);
        var results = new ArrayList<TrialResult>();
        var takeovers = new ArrayList<Takeover>();
        for (int trial = 0; trial < settings.trials(); trial++) {
          var outcome = trial(cluster, jar, config, work, admin, history, audit, auditFile, lease, schedulerName,
              "k" + trial);
          results.add(outcome.result());
          takeovers.add(outcome.takeover());
          var t = outcome.takeover();
          log.printf("trial %d of %s: %d pods, takeover: Lease %s, first binding %s (last renewal %d ms before the"
                  + " kill, %d bindings in the second before it, exit %d), recovery %s, LISTs %d after the kill and %d at the fresh replica's start,"
                  + " violations %s%n",
              trial + 1, NAME, outcome.result().pods(), millis(t.lease()), millis(t.firstBinding()),
              t.sinceRenewal().toMillis(), t.bindingsBeforeKill(), t.exitStatus(), millis(outcome.result().recovery()), t.listsAtTakeover(),
              t.listsAtStart(), outcome.result().violations().stream()
                  .map(v -> v.kind() + " " + v.subject() + ": " + v.detail()).toList());
          clean(admin);
        }
        return new Outcome(results, takeovers);
      } finally {
        for (var replica : replicas) {
          replica.close();
        }
      }
    }
  }

  private record TrialOutcome(TrialResult result, Takeover takeover) {}

  private TrialOutcome trial(TestCluster cluster, Path jar, Path config, Path work, KubernetesClient admin,
      PodHistory history, AuditLog audit, Path auditFile, LeaseRef lease, String schedulerName, String prefix)
      throws Exception {
    var stream = new PodStream(admin, DrillRun.NAMESPACE, schedulerName, prefix, settings.rate(), settings.nodes());
    PodStream burst = null;
    Optional<Duration> takenOver;
    Optional<Duration> recovery;
    Duration sinceRenewal;
    Instant killed;
    Instant dead;
    int exitStatus;
    int pods;
    long mark;
    try {
      Thread.sleep(Math.max(0, settings.before().minus(BURST_LEAD).toMillis()));
      burst = new PodStream(admin, DrillRun.NAMESPACE, schedulerName, prefix + "b", BURST_RATE, settings.nodes());
      awaitCreated(burst, BURST_PODS / 2);
      var held = lease.get(admin);
      var holder = holder(held);
      var leader = replicas.stream().filter(r -> holder.equals(identityOf(r))).findFirst()
          .orElseThrow(() -> new IllegalStateException("the Lease's holder '" + holder + "' is none of "
              + replicas.stream().map(r -> r + " as " + identityOf(r)).toList()));
      var survivor = replicas.stream().filter(r -> r != leader).findFirst().orElseThrow();
      var survivorIdentity = identityOf(survivor);
      mark = audit.mark();
      killed = Instant.now();
      long killedNanos = System.nanoTime();
      exitStatus = leader.kill();
      dead = Instant.now();
      replicas.remove(leader);
      awaitCreated(burst, BURST_PODS);
      burst.stop();
      sinceRenewal = held == null || held.getSpec().getRenewTime() == null ? Duration.ZERO
          : Duration.between(held.getSpec().getRenewTime().toInstant(), killed);
      boolean taken = DrillRun.waitFor(settings.settle(), () -> holder(lease.get(admin)).equals(survivorIdentity));
      long healed = System.nanoTime();
      // The new holder's acquireTime, not this poll's: the poll adds up to its period and the load's delays.
      var polled = Duration.ofNanos(healed - killedNanos);
      takenOver = taken
          ? acquiredAfter(lease.get(admin), survivorIdentity, killed).or(() -> Optional.of(polled))
          : Optional.empty();
      if (!taken) {
        log.printf("%s did not take the Lease within %s; its log ends:%n%s%n", survivor, settings.settle(),
            survivor.tail(40));
      }
      var created = new HashMap<>(stream.createdPods());
      created.putAll(burst.createdPods());
      var mustBind = DrillRun.mustBind(created);
      recovery = DrillRun.recovery(admin, mustBind, settings.settle(), 200, healed);
      DrillRun.sleepUntil(healed, settings.after());
      stream.stop();
      stream.ungateAll();
      burst.ungateAll();
      pods = stream.created() + burst.created();
    } finally {
      stream.close();
      if (burst != null) {
        burst.close();
      }
    }
    DrillRun.waitFor(settings.settle(), () -> Invariants.check(snapshot(admin, history)).isEmpty());
    var snapshot = snapshot(admin, history);
    var violations = new ArrayList<>(Invariants.check(snapshot));
    var bindings = BindingAudit.parseAll(Files.readAllLines(auditFile, StandardCharsets.UTF_8));
    var names = snapshot.pods().stream().map(Snapshot.PodView::name).collect(Collectors.toSet());
    violations.addAll(BindingAudit.boundTwice(bindings, DrillRun.NAMESPACE, names));
    log.printf("checked %d pods (%d bound, %d seen bound by the watch), %d Scheduled and %d FailedScheduling events,"
            + " %d binding POSTs%n",
        snapshot.pods().size(), snapshot.pods().stream().filter(Snapshot.PodView::bound).count(),
        snapshot.nodeNamesSeen().size(),
        snapshot.events().stream().filter(e -> e.reason().equals("Scheduled")).count(),
        snapshot.events().stream().filter(e -> e.reason().equals("FailedScheduling")).count(),
        bindings.stream().filter(b -> b.namespace().equals(DrillRun.NAMESPACE) && names.contains(b.name())).count());
    int listsAtTakeover = audit.listsSince(mark);
    long beforeStart = audit.mark();
    startReady(cluster, jar, config, work);
    int listsAtStart = audit.listsSince(beforeStart);
    var firstBinding = BindingAudit.firstBindingAfter(bindings, killed, dead);
    return new TrialOutcome(
        new TrialResult(NAME, pods, violations, listsAtTakeover, recovery),
        new Takeover(takenOver, firstBinding, sinceRenewal, exitStatus,
            BindingAudit.received(bindings, killed.minus(BURST_LEAD), killed), listsAtTakeover, listsAtStart));
  }

  /** Waits until {@code stream} has created {@code count} pods, or {@link #BURST_LEAD} has passed. */
  private static void awaitCreated(PodStream stream, int count) throws InterruptedException {
    long deadline = System.nanoTime() + BURST_LEAD.toNanos();
    while (stream.created() < count && System.nanoTime() - deadline < 0) {
      Thread.sleep(10);
    }
  }

  private static Snapshot snapshot(KubernetesClient admin, PodHistory history) {
    return DrillRun.snapshot(admin, Optional.empty(), history);
  }

  /** Starts a replica and waits until it is ready and campaigns; it joins {@link #replicas}. */
  private Replica startReady(TestCluster cluster, Path jar, Path config, Path work) throws Exception {
    var replica = Replica.start("replica-" + started++, jar, config, cluster.schedulerKubeconfig(), work);
    replicas.add(replica);
    if (!DrillRun.waitFor(settings.settle(), () -> {
      if (!replica.alive()) {
        throw new IllegalStateException(replica + " exited; its log ends:\n" + replica.tail(40));
      }
      return replica.ready() && !identityOf(replica).isEmpty();
    })) {
      throw new IllegalStateException(replica + " was not ready within " + settings.settle() + "; its log ends:\n"
          + replica.tail(40));
    }
    return replica;
  }

  /** @return the replica's identity in the Lease; empty before it campaigns */
  private static String identityOf(Replica replica) {
    try {
      return replica.identity().orElse("");
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * @param lease the Lease as read, null if it does not exist
   * @return its holder; empty if it has none (released) or does not exist
   */
  static String holder(@Nullable Lease lease) {
    var holder = lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    return holder == null ? "" : holder;
  }

  /**
   * @param lease the Lease as read after the takeover, null if it does not exist
   * @param identity the replica that took over
   * @param killed when the leader was sent SIGKILL
   * @return from {@code killed} to the Lease's {@code acquireTime}, which the new holder writes from its clock
   *     (the runner's: same machine) when it acquires; empty if {@code identity} does not hold it or it has no
   *     acquire time
   */
  static Optional<Duration> acquiredAfter(@Nullable Lease lease, String identity, Instant killed) {
    var spec = lease == null ? null : lease.getSpec();
    if (spec == null || !identity.equals(spec.getHolderIdentity()) || spec.getAcquireTime() == null) {
      return Optional.empty();
    }
    return Optional.of(Duration.between(killed, spec.getAcquireTime().toInstant()));
  }

  /** The Lease the replicas campaign for. */
  private record LeaseRef(String namespace, String name) {
    @Nullable Lease get(KubernetesClient admin) {
      return admin.resources(Lease.class).inNamespace(namespace).withName(name).get();
    }
  }

  /** @return {@code config.yaml} of the ConfigMap in {@value #DEPLOYED_CONFIG} */
  private String deployedConfig(KubernetesClient admin) throws IOException {
    var file = settings.project().resolve(DEPLOYED_CONFIG);
    try (var yaml = Files.newInputStream(file)) {
      var text = admin.configMaps().load(yaml).item().getData().get("config.yaml");
      if (text == null || text.isBlank()) {
        throw new IllegalStateException(file + " has no config.yaml");
      }
      return text;
    }
  }

  /** Deletes the trial's pods and waits until the API server has none left. */
  private void clean(KubernetesClient admin) throws InterruptedException {
    admin.pods().inNamespace(DrillRun.NAMESPACE).withGracePeriod(0).delete();
    if (!DrillRun.waitFor(settings.settle(),
        () -> admin.pods().inNamespace(DrillRun.NAMESPACE).list().getItems().isEmpty())) {
      log.println("warning: pods left after the trial's cleanup");
    }
  }

  private static String millis(Optional<Duration> duration) {
    return duration.map(d -> d.toMillis() + " ms").orElse("none");
  }
}
