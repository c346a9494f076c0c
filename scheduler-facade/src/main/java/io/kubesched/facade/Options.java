package io.kubesched.facade;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.SchedulingConstants;
import io.kubesched.binder.BindMode;
import io.kubesched.binder.TokenBucket;
import io.kubesched.informer.ControllerSettings;
import io.kubesched.informer.LeaderSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * How to connect and how to schedule. Immutable; made with {@link #builder()}.
 *
 * <p>Where the cluster is, one of: a kubeconfig ({@link Builder#kubeconfig(Path) an explicit path}, else
 * the first existing file in {@code KUBECONFIG}, else {@code ~/.kube/config}; the default), the pod's
 * service account ({@link Builder#inCluster()}), or an embedded fake cluster ({@link Builder#fake()}).
 */
public final class Options {

  /** Where the cluster is. */
  public enum Connection {
    /** A kubeconfig file: explicit path, else {@code KUBECONFIG}, else {@code ~/.kube/config}. */
    KUBECONFIG,
    /** The service account of the pod this process runs in. */
    IN_CLUSTER,
    /**
     * An embedded fabric8 mock server in CRUD mode, for demos and fast tests. Needs {@code
     * io.fabric8:kubernetes-server-mock} on the class path. It is not a Kubernetes API server: it ignores
     * field selectors and does not implement binding (the library sets {@code spec.nodeName} instead).
     */
    FAKE
  }

  private final Connection connection;
  private final @Nullable Path kubeconfig;
  private final ControllerSettings settings;
  private final SchedulerMetrics metrics;

  private Options(
      Connection connection,
      @Nullable Path kubeconfig,
      ControllerSettings settings,
      SchedulerMetrics metrics) {
    this.connection = connection;
    this.kubeconfig = kubeconfig;
    this.settings = settings;
    this.metrics = metrics;
  }

  /**
   * @return a builder with the defaults: kubeconfig, scheduler name {@code kubesched}, 30 s bind timeout,
   *     backoff from 1 s doubling to 10 s, unschedulable pods retried on cluster events or after 5 min, 60 s
   *     to list the cluster at start, 50 writes per second with bursts of 100, 16 bindings in flight, 15 min
   *     for the watch to confirm a binding, 30 s to shut down, no leader election, no metrics
   */
  public static Builder builder() {
    return new Builder();
  }

  /** @return where the cluster is */
  public Connection connection() {
    return connection;
  }

  /** @return the kubeconfig path given explicitly, if any */
  public Optional<Path> kubeconfig() {
    return Optional.ofNullable(kubeconfig);
  }

  /** @return the {@code spec.schedulerName} of the pods to place */
  public String schedulerName() {
    return settings.schedulerName();
  }

  /** @return how long one binding request may take */
  public Duration bindTimeout() {
    return settings.bindTimeout();
  }

  /** @return how long a pod waits after its first failed attempt */
  public Duration initialBackoff() {
    return settings.initialBackoff();
  }

  /** @return the longest a pod waits between attempts */
  public Duration maxBackoff() {
    return settings.maxBackoff();
  }

  /** @return how long starting a controller may take to list the cluster */
  public Duration syncTimeout() {
    return settings.syncTimeout();
  }

  /**
   * @throws ConfigurationException if {@code name} is blank or kube-scheduler's own
   */
  static void requireSchedulerName(String name) {
    if (name.isBlank()) {
      throw new ConfigurationException("schedulerName must not be blank");
    }
    if (name.equals(SchedulingConstants.DEFAULT_SCHEDULER_NAME)) {
      throw new ConfigurationException(
          "schedulerName must not be '" + name + "': that is kube-scheduler's, and two"
              + " schedulers binding the same pods fight over them");
    }
  }

  /** @return whether only the elected leader among replicas schedules */
  public boolean leaderElection() {
    return settings.leaderElection() != null;
  }

  /** @return the scheduling loop's settings */
  ControllerSettings controllerSettings() {
    return settings;
  }

  /** @return what records the scheduling loop's metrics; {@link SchedulerMetrics#NONE} by default */
  public SchedulerMetrics metrics() {
    return metrics;
  }

  @Override
  public String toString() {
    return "Options[connection=" + connection + (kubeconfig == null ? "" : ", kubeconfig=" + kubeconfig)
        + ", " + settings + "]";
  }

  /** Builds {@link Options}. Not thread-safe. */
  public static final class Builder {

    /** The scheduler name used when none is set. */
    public static final String DEFAULT_SCHEDULER_NAME = "kubesched";

    private Connection connection = Connection.KUBECONFIG;
    private @Nullable Path kubeconfig;
    private String schedulerName = DEFAULT_SCHEDULER_NAME;
    private Duration bindTimeout = Duration.ofSeconds(30);
    private Duration initialBackoff = Duration.ofSeconds(1);
    private Duration maxBackoff = Duration.ofSeconds(10);
    private Duration syncTimeout = Duration.ofSeconds(60);
    private Duration unschedulableTimeout = ControllerSettings.DEFAULT_UNSCHEDULABLE_TIMEOUT;
    private Duration assumedPodTtl = ControllerSettings.DEFAULT_ASSUMED_POD_TTL;
    private double qps = TokenBucket.DEFAULT_QPS;
    private int burst = TokenBucket.DEFAULT_BURST;
    private int parallelBindings = ControllerSettings.DEFAULT_PARALLEL_BINDINGS;
    private Duration shutdownTimeout = Duration.ofSeconds(30);
    private boolean leaderElection;
    private String leaseNamespace = LeaderSettings.DEFAULT_NAMESPACE;
    private @Nullable String leaseName;
    private Duration leaseDuration = LeaderSettings.DEFAULT_LEASE_DURATION;
    private Duration renewDeadline = LeaderSettings.DEFAULT_RENEW_DEADLINE;
    private Duration retryPeriod = LeaderSettings.DEFAULT_RETRY_PERIOD;
    private SchedulerMetrics metrics = SchedulerMetrics.NONE;

    private Builder() {}

    /** Connect with the kubeconfig at {@code path} (it wins over {@code KUBECONFIG}). */
    public Builder kubeconfig(Path path) {
      this.connection = Connection.KUBECONFIG;
      this.kubeconfig = path;
      return this;
    }

    /** Connect with the pod's service account. */
    public Builder inCluster() {
      this.connection = Connection.IN_CLUSTER;
      this.kubeconfig = null;
      return this;
    }

    /** Start and connect to an embedded fake cluster. */
    public Builder fake() {
      this.connection = Connection.FAKE;
      this.kubeconfig = null;
      return this;
    }

    /** Place the pods whose {@code spec.schedulerName} is {@code name}. */
    public Builder schedulerName(String name) {
      this.schedulerName = name;
      return this;
    }

    /** Give one binding request at most {@code timeout}. */
    public Builder bindTimeout(Duration timeout) {
      this.bindTimeout = timeout;
      return this;
    }

    /** Retry a failed pod after {@code initial}, doubling per attempt up to {@code max}. */
    public Builder backoff(Duration initial, Duration max) {
      this.initialBackoff = initial;
      this.maxBackoff = max;
      return this;
    }

    /** Give a starting controller at most {@code timeout} to list the cluster. */
    public Builder syncTimeout(Duration timeout) {
      this.syncTimeout = timeout;
      return this;
    }

    /**
     * Try a pod that fits nowhere again after at most {@code timeout} even if no cluster event could have
     * helped it (kube-scheduler's {@code podMaxInUnschedulablePodsDuration}, 5 min).
     */
    public Builder unschedulableTimeout(Duration timeout) {
      this.unschedulableTimeout = timeout;
      return this;
    }

    /**
     * Drop the assumption of a pod whose binding succeeded if the watch has not shown it bound after {@code
     * ttl}, and schedule it again (15 min); {@link Duration#ZERO} keeps it until the watch shows it.
     */
    public Builder assumedPodTtl(Duration ttl) {
      this.assumedPodTtl = ttl;
      return this;
    }

    /**
     * Limit the bindings to {@code qps} per second, with bursts of up to {@code burst} (kube-scheduler's
     * client: 50 and 100), and the reports (events, pod conditions) alike, in a limit of their own, as
     * kube-scheduler's event client has. fabric8 has no limit of its own.
     */
    public Builder rateLimit(double qps, int burst) {
      this.qps = qps;
      this.burst = burst;
      return this;
    }

    /** Let up to {@code count} bindings be in flight while the scheduler decides the next pods (16). */
    public Builder parallelBindings(int count) {
      this.parallelBindings = count;
      return this;
    }

    /** Let {@code close()} wait up to {@code timeout} for bindings in flight (30 s). */
    public Builder shutdownTimeout(Duration timeout) {
      this.shutdownTimeout = timeout;
      return this;
    }

    /**
     * Schedule only while elected leader among the replicas that share the lease {@code
     * kube-system/<schedulerName>}, with kube-scheduler's timings (lease 15 s, renew deadline 10 s, retry
     * 2 s). A replica that loses the lease stops scheduling and campaigns again; the process goes on. Needs
     * RBAC on {@code coordination.k8s.io} leases.
     */
    public Builder leaderElection() {
      this.leaderElection = true;
      return this;
    }

    /**
     * Leader election on the lease {@code namespace/name} with the given timings (see {@link
     * #leaderElection()}).
     */
    public Builder leaderElection(
        String namespace, String name, Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
      this.leaderElection = true;
      this.leaseNamespace = namespace;
      this.leaseName = name;
      this.leaseDuration = leaseDuration;
      this.renewDeadline = renewDeadline;
      this.retryPeriod = retryPeriod;
      return this;
    }

    /**
     * Record what the scheduling loop does (attempts, latencies, pending pods) into {@code metrics}; for
     * kube-scheduler's metric names in a Micrometer registry, use {@code scheduler-micrometer}'s
     * implementation.
     */
    public Builder metrics(SchedulerMetrics metrics) {
      this.metrics = Objects.requireNonNull(metrics, "metrics");
      return this;
    }

    /**
     * @throws ConfigurationException naming the option and its value, if the scheduler name is blank or
     *     {@code default-scheduler}, a duration is not positive, or the maximum backoff is shorter than the
     *     initial one
     */
    public Options build() {
      requireSchedulerName(schedulerName);
      var bindMode = connection == Connection.FAKE ? BindMode.SET_NODE_NAME : BindMode.SUBRESOURCE;
      try {
        var leader =
            leaderElection
                ? new LeaderSettings(
                    leaseNamespace,
                    leaseName != null ? leaseName : schedulerName,
                    leaseDuration,
                    renewDeadline,
                    retryPeriod)
                : null;
        return new Options(
            connection,
            kubeconfig,
            new ControllerSettings(
                schedulerName,
                bindMode,
                bindTimeout,
                initialBackoff,
                maxBackoff,
                syncTimeout,
                unschedulableTimeout,
                assumedPodTtl,
                qps,
                burst,
                parallelBindings,
                shutdownTimeout,
                leader),
            metrics);
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException(e.getMessage(), e);
      }
    }
  }
}
