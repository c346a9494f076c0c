package io.kubesched.samples.josdk;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import io.kubesched.facade.Client;
import io.kubesched.facade.Controller;
import io.kubesched.facade.Options;
import io.kubesched.samples.josdk.placement.TeamPacking;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sample operator as a process: java-operator-sdk runs {@link BatchJobReconciler}, and kubesched, embedded,
 * places the workers it creates with {@link TeamPacking#policy()}. Both share one fabric8 client, which this class
 * builds and closes last, and one leadership: with leader election on, java-operator-sdk campaigns for a Lease and
 * its leader callbacks tell the scheduler when to schedule ({@link Options.Builder#externalLeadership()}, {@link
 * Controller#setLeading(boolean)}); with it off, the scheduler leads from the start.
 *
 * <pre>
 * java -jar kubesched-sample-josdk-operator.jar [--kubeconfig PATH] [--leader-election-namespace NAMESPACE]
 *     [--lease-name NAME]
 * </pre>
 *
 * <p>Without {@code --kubeconfig} the fabric8 client configures itself as usual: {@code KUBECONFIG}, then {@code
 * ~/.kube/config}, then the pod's service account. Runs until killed; SIGTERM stops the operator, then the
 * scheduler, then closes the client.
 */
public final class BatchOperator implements AutoCloseable {

  /** The {@code spec.schedulerName} of the workers, and the embedded scheduler's name. */
  public static final String SCHEDULER_NAME = "batch-scheduler";

  /** The Lease's name when leader election is on and {@code --lease-name} is not given. */
  public static final String DEFAULT_LEASE_NAME = "kubesched-sample-batch-operator";

  private static final Logger LOG = LoggerFactory.getLogger(BatchOperator.class);
  private static final String USAGE = "usage: BatchOperator [--kubeconfig PATH]"
      + " [--leader-election-namespace NAMESPACE] [--lease-name NAME]";

  private final KubernetesClient kubernetes;
  private final Client scheduling;
  private final Controller scheduler;
  private final Operator operator;
  /** Set once {@link #close()} begins: the lease given up from then on is no loss. */
  private final AtomicBoolean closing;

  private BatchOperator(
      KubernetesClient kubernetes, Client scheduling, Controller scheduler, Operator operator, AtomicBoolean closing) {
    this.closing = closing;
    this.kubernetes = kubernetes;
    this.scheduling = scheduling;
    this.scheduler = scheduler;
    this.operator = operator;
  }

  /**
   * Builds the shared client, the scheduler and the operator, then starts the scheduler (it lists the cluster
   * first, a follower until told it leads) and the operator: with leader election it campaigns, and its callbacks
   * hand the leadership on; without, the scheduler leads at once.
   *
   * @param arguments the command line
   * @return the running operator
   */
  static BatchOperator start(Arguments arguments) {
    var config = arguments.kubeconfig()
        .map(path -> Config.fromKubeconfig(path.toFile()))
        .orElseGet(() -> Config.autoConfigure(null));
    var kubernetes = new KubernetesClientBuilder().withConfig(config).build();
    @Nullable Client scheduling = null;
    var closing = new AtomicBoolean();
    try {
      // docs/operators.md shows from here (OperatorsPageTest)
      scheduling = Client.create(Options.builder()
          .kubernetesClient(kubernetes)
          .schedulerName(SCHEDULER_NAME)
          .externalLeadership()
          .build());
      var scheduler = scheduling.newPodController(TeamPacking.policy());
      var operator = new Operator(overrider -> {
        overrider.withKubernetesClient(kubernetes).withCloseClientOnStop(false);
        arguments.leaseNamespace().ifPresent(namespace -> overrider.withLeaderElectionConfiguration(
            LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(arguments.leaseName())
                .withLeaseNamespace(namespace)
                // java-operator-sdk 5.2.3 would call System.exit from the callback that Operator.stop() runs too,
                // which in a shutdown hook blocks the JVM for good: stoppedLeading exits itself, on a real loss.
                .withExitOnStopLeading(false)
                .withLeaderCallbacks(new LeaderCallbacks(
                    () -> startedLeading(scheduler),
                    () -> stoppedLeading(scheduler, closing),
                    leader -> LOG.info("The Lease {}/{} is held by {}", namespace, arguments.leaseName(), leader)))
                .build()));
      });
      operator.register(new BatchJobReconciler(SCHEDULER_NAME));
      // to here
      scheduler.start();
      if (arguments.leaseNamespace().isEmpty()) {
        LOG.info("Leader election is off: {} schedules from now", SCHEDULER_NAME);
        scheduler.setLeading(true);
      }
      try {
        operator.start();
      } catch (RuntimeException e) {
        stop(operator);
        throw e;
      }
      var batch = new BatchOperator(kubernetes, scheduling, scheduler, operator, closing);
      LOG.info("BatchJob operator started; workers go to {} with {}", SCHEDULER_NAME, TeamPacking.NAME);
      return batch;
    } catch (RuntimeException e) {
      if (scheduling != null) {
        scheduling.close();
      }
      kubernetes.close();
      throw e;
    }
  }

  /** java-operator-sdk's leader callback on election, on its leader elector's thread. */
  private static void startedLeading(Controller scheduler) {
    LOG.info("Elected leader: {} schedules", SCHEDULER_NAME);
    scheduler.setLeading(true);
  }

  /**
   * java-operator-sdk's leader callback when the lease is gone: lost (renewal failed), or given up by {@link
   * #close()}. The scheduler stops at once either way. On a loss the process exits with status 1, as
   * java-operator-sdk's own default does, since its reconcilers would go on running beside the new leader's; a
   * restart campaigns again. The exit runs on a thread of its own, so that the shutdown hook it starts can stop the
   * leader elector whose thread this is.
   */
  private static void stoppedLeading(Controller scheduler, AtomicBoolean closing) {
    scheduler.setLeading(false);
    if (closing.get()) {
      LOG.info("Gave up the lease: {} stops scheduling", SCHEDULER_NAME);
      return;
    }
    LOG.error("Lost the lease: {} stops scheduling; exiting so that a restart campaigns again", SCHEDULER_NAME);
    new Thread(() -> System.exit(1), "batch-operator-exit").start();
  }

  /** Blocks until the scheduler is closed (by {@link #close()}, from the shutdown hook). */
  void awaitClosed() throws InterruptedException {
    scheduler.run();
  }

  /** Stops the operator, then the scheduler (its bindings in flight end first), then closes the shared client. */
  @Override
  public void close() {
    closing.set(true);
    stop(operator);
    scheduling.close();
    kubernetes.close();
    LOG.info("BatchJob operator stopped");
  }

  private static void stop(Operator operator) {
    try {
      operator.stop();
    } catch (RuntimeException e) {
      LOG.warn("The operator did not stop cleanly", e);
    }
  }

  /**
   * Runs the operator until the process is killed.
   *
   * @param args {@code [--kubeconfig PATH] [--leader-election-namespace NAMESPACE] [--lease-name NAME]}
   */
  public static void main(String[] args) throws InterruptedException {
    Arguments arguments;
    try {
      arguments = Arguments.parse(args);
    } catch (IllegalArgumentException e) {
      LOG.error("{}\n{}", e.getMessage(), USAGE);
      System.exit(2);
      return;
    }
    var batch = start(arguments);
    Runtime.getRuntime().addShutdownHook(new Thread(batch::close, "batch-operator-shutdown"));
    batch.awaitClosed();
  }

  /**
   * The command line.
   *
   * @param kubeconfig the kubeconfig to read; else fabric8's usual places
   * @param leaseNamespace leader election's Lease namespace; leader election is off without one
   * @param leaseName the Lease's name
   */
  record Arguments(Optional<Path> kubeconfig, Optional<String> leaseNamespace, String leaseName) {

    /**
     * @throws IllegalArgumentException naming the argument, for an unknown one, a missing value, or a blank one
     */
    static Arguments parse(String... args) {
      @Nullable Path kubeconfig = null;
      @Nullable String leaseNamespace = null;
      String leaseName = DEFAULT_LEASE_NAME;
      for (int i = 0; i < args.length; i++) {
        var flag = args[i];
        if (!flag.equals("--kubeconfig") && !flag.equals("--leader-election-namespace")
            && !flag.equals("--lease-name")) {
          throw new IllegalArgumentException("unknown argument " + flag);
        }
        if (i + 1 >= args.length || args[i + 1].isBlank()) {
          throw new IllegalArgumentException(flag + " needs a value");
        }
        var value = args[++i];
        switch (flag) {
          case "--kubeconfig" -> kubeconfig = Path.of(value);
          case "--leader-election-namespace" -> leaseNamespace = value;
          default -> leaseName = value;
        }
      }
      return new Arguments(Optional.ofNullable(kubeconfig), Optional.ofNullable(leaseNamespace),
          Objects.requireNonNull(leaseName));
    }
  }
}
