package io.kubesched.facade;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.MAINTAINED;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.SchedulingConstants;
import io.kubesched.binder.BindMode;
import io.kubesched.informer.ControllerSettings;
import io.kubesched.informer.leader.LeaderSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * How to connect and how to schedule. Immutable and thread-safe; made with {@link #builder()}, which checks
 * every setting when it {@linkplain Builder#build() builds}.
 *
 * <p>This class is the one place that holds the library's defaults (the {@code DEFAULT_*} constants here
 * and in {@link LeaderElection}) and their rules: the parts underneath take the values it hands them.
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class Options {

  /** Our scheduler name when none is set: pods with {@code spec.schedulerName: kubesched} are ours. */
  public static final String DEFAULT_SCHEDULER_NAME = "kubesched";

  /** How long one binding request may take. */
  public static final Duration DEFAULT_BIND_TIMEOUT = Duration.ofSeconds(30);

  /**
   * How long a pod's volume bindings may take to be carried out (its claims bound by the PersistentVolume
   * controller, its volumes provisioned) before the pod is tried again: kube-scheduler's VolumeBindingArgs
   * {@code bindTimeoutSeconds}.
   */
  public static final Duration DEFAULT_VOLUME_BINDING_TIMEOUT = Duration.ofSeconds(600);

  /** How long a pod waits after its first failed attempt: kube-scheduler's {@code podInitialBackoffSeconds}. */
  public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofSeconds(1);

  /** The longest a pod waits between attempts: kube-scheduler's {@code podMaxBackoffSeconds}. */
  public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(10);

  /** How long starting a controller may take to list the cluster. */
  public static final Duration DEFAULT_SYNC_TIMEOUT = Duration.ofSeconds(60);

  /**
   * The longest a pod that fits nowhere waits for a helpful cluster event before it is tried anyway:
   * kube-scheduler's {@code podMaxInUnschedulablePodsDuration}.
   */
  public static final Duration DEFAULT_UNSCHEDULABLE_TIMEOUT = Duration.ofMinutes(5);

  /**
   * How long a pod whose binding succeeded may stay unconfirmed by the watch before the assumption is
   * dropped: kube-scheduler's assumed-pod expiry before it stopped expiring them.
   */
  public static final Duration DEFAULT_ASSUMED_POD_TTL = Duration.ofMinutes(15);

  /** Writes per second to the API server: kube-scheduler's client QPS. */
  public static final double DEFAULT_QPS = 50;

  /** Writes that may go at once before {@link #DEFAULT_QPS} applies: kube-scheduler's client burst. */
  public static final int DEFAULT_BURST = 100;

  /** Bindings in flight at once while the scheduler decides the next pods. */
  public static final int DEFAULT_PARALLEL_BINDINGS = 16;

  /** How long {@code close()} waits for the bindings in flight. */
  public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

  /**
   * How many threads may filter and score the nodes for one pod: kube-scheduler's {@code parallelism}. The
   * controller uses at most one per available processor (see {@link Builder#parallelism}).
   */
  public static final int DEFAULT_PARALLELISM = 16;

  /**
   * How long a pod group with all its members may go unplaced before it is reported as timed out, where the
   * group sets no timeout of its own: 5 minutes, kube-scheduler's GangScheduling Permit wait.
   */
  public static final Duration DEFAULT_POD_GROUP_TIMEOUT = Duration.ofMinutes(5);

  private static final Pattern DNS_1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern DNS_1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  /**
   * Where the cluster is: a {@link Kubeconfig} file, the pod's service account ({@link InCluster}), a fabric8
   * configuration ({@link Configured}), the application's own fabric8 client ({@link Shared}), or the {@link
   * Fake} cluster.
   */
  public sealed interface Connection {

    /**
     * A kubeconfig file.
     *
     * @param path the file; empty for the first existing file in {@code KUBECONFIG}, else {@code
     *     ~/.kube/config}
     */
    record Kubeconfig(Optional<Path> path) implements Connection {
      /** @throws NullPointerException if {@code path} is null (use {@link Optional#empty()}) */
      public Kubeconfig {
        Objects.requireNonNull(path, "path");
      }
    }

    /** The service account of the pod this process runs in. */
    record InCluster() implements Connection {}

    /**
     * A fabric8 configuration the application built. The library connects with a copy taken when the client
     * is created, so later changes to {@code config} do not reach it.
     *
     * @param config names the API server and the credentials
     */
    record Configured(Config config) implements Connection {
      /** @throws NullPointerException if {@code config} is null */
      public Configured {
        Objects.requireNonNull(config, "config");
      }
    }

    /**
     * The fabric8 client the application already has, such as an operator's. {@link Client#kubernetesClient()}
     * returns it, and the library never closes it: close it after the library's {@link Client}. The scheduling
     * loop watches, binds and reports through clients of its own, made from a copy of {@code client}'s
     * configuration and credentials, so that its watches and write limit neither share nor slow the
     * application's connection. {@code client} must talk to a Kubernetes API server; for fabric8's mock server
     * use {@link Fake}, which binds by setting {@code spec.nodeName}.
     *
     * @param client the application's client
     */
    record Shared(KubernetesClient client) implements Connection {
      /** @throws NullPointerException if {@code client} is null */
      public Shared {
        Objects.requireNonNull(client, "client");
      }
    }

    /**
     * An embedded fabric8 mock server in CRUD mode, for demos and fast tests. Needs {@code
     * io.fabric8:kubernetes-server-mock} on the class path. It is not a Kubernetes API server: it ignores
     * field selectors and does not implement binding (the library sets {@code spec.nodeName} instead).
     */
    record Fake() implements Connection {}
  }

  /**
   * Schedule only while elected leader among the replicas that share one {@code coordination.k8s.io} Lease.
   * Immutable; made with {@link #builder()} or {@link #defaults()}.
   *
   * <p>The timings follow client-go's rules ({@code leaseDuration > renewDeadline > 1.2 × retryPeriod}, all
   * positive), tightened where fabric8 8.0.0's elector, which runs the election, needs more:
   *
   * <ul>
   *   <li>every duration is at least 1 ms (fabric8 works in milliseconds);
   *   <li>{@code leaseDuration} is a whole number of seconds: a Lease stores {@code leaseDurationSeconds}
   *       and fabric8 truncates, so 1.5 s would be written as 1 s and a rival would take over early;
   *   <li>{@code renewDeadline > retryPeriod + ceil(1.2 × retryPeriod)}: fabric8 adds its jitter to the
   *       period, where client-go's rule counts only {@code 1.2 × retryPeriod}.
   * </ul>
   */
  public static final class LeaderElection {

    /** The namespace of kube-scheduler's Lease, the default outside a pod. */
    public static final String DEFAULT_LEASE_NAMESPACE = "kube-system";

    /** Where a pod's service account token puts the pod's namespace. */
    static final Path POD_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

    /** kube-scheduler's {@code --leader-elect-lease-duration}. */
    public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(15);

    /** kube-scheduler's {@code --leader-elect-renew-deadline}. */
    public static final Duration DEFAULT_RENEW_DEADLINE = Duration.ofSeconds(10);

    /** kube-scheduler's {@code --leader-elect-retry-period}. */
    public static final Duration DEFAULT_RETRY_PERIOD = Duration.ofSeconds(2);

    /** client-go's and fabric8's {@code JitterFactor}. */
    static final double JITTER_FACTOR = 1.2;

    private final String leaseNamespace;
    private final @Nullable String leaseName;
    private final Duration leaseDuration;
    private final Duration renewDeadline;
    private final Duration retryPeriod;

    private LeaderElection(LeaderElection.Builder builder) {
      this.leaseNamespace = builder.leaseNamespace;
      this.leaseName = builder.leaseName;
      this.leaseDuration = builder.leaseDuration;
      this.renewDeadline = builder.renewDeadline;
      this.retryPeriod = builder.retryPeriod;
    }

    /**
     * @return kube-scheduler's settings (lease 15 s, renew deadline 10 s, retry 2 s) on the Lease {@code
     *     <namespace>/<scheduler name>}, where the namespace is the pod's when this process runs in one (read
     *     from its service account, as an operator's own namespace, where it has rights) and {@value
     *     #DEFAULT_LEASE_NAMESPACE}, kube-scheduler's, elsewhere
     */
    public static LeaderElection defaults() {
      return builder().build();
    }

    /** @return a builder that starts from {@link #defaults()} */
    public static LeaderElection.Builder builder() {
      return new LeaderElection.Builder();
    }

    /**
     * @return the namespace of the Lease; by default the pod's in a pod, {@value #DEFAULT_LEASE_NAMESPACE}
     *     elsewhere ({@link #defaults()})
     */
    public String leaseNamespace() {
      return leaseNamespace;
    }

    /** @return the name of the Lease; empty (the default) for the controller's scheduler name */
    public Optional<String> leaseName() {
      return Optional.ofNullable(leaseName);
    }

    /** @return how long a rival waits after the leader's last renewal before it may take over */
    public Duration leaseDuration() {
      return leaseDuration;
    }

    /** @return how long the leader keeps retrying a failed renewal before it stops leading */
    public Duration renewDeadline() {
      return renewDeadline;
    }

    /** @return how long a candidate waits between attempts */
    public Duration retryPeriod() {
      return retryPeriod;
    }

    /** The longest wait between two attempts to acquire: the period plus fabric8's rounded-up jitter. */
    static Duration longestJitteredRetry(Duration retryPeriod) {
      return retryPeriod.plusMillis((long) Math.ceil(retryPeriod.toMillis() * JITTER_FACTOR));
    }

    /** @return the namespace in {@code file} (a pod's service account's), empty if there is none or it is blank */
    static Optional<String> podNamespace(Path file) {
      try {
        return Files.isRegularFile(file)
            ? Optional.of(Files.readString(file).strip()).filter(n -> !n.isEmpty())
            : Optional.empty();
      } catch (IOException e) {
        return Optional.empty();
      }
    }

    LeaderSettings settings(String schedulerName) {
      return new LeaderSettings(
          leaseNamespace,
          leaseName != null ? leaseName : schedulerName,
          leaseDuration,
          renewDeadline,
          retryPeriod);
    }

    @Override
    public boolean equals(@Nullable Object o) {
      return o instanceof LeaderElection other
          && leaseNamespace.equals(other.leaseNamespace)
          && Objects.equals(leaseName, other.leaseName)
          && leaseDuration.equals(other.leaseDuration)
          && renewDeadline.equals(other.renewDeadline)
          && retryPeriod.equals(other.retryPeriod);
    }

    @Override
    public int hashCode() {
      return Objects.hash(leaseNamespace, leaseName, leaseDuration, renewDeadline, retryPeriod);
    }

    @Override
    public String toString() {
      return "LeaderElection[lease="
          + leaseNamespace
          + "/"
          + (leaseName != null ? leaseName : "<scheduler name>")
          + ", leaseDuration="
          + leaseDuration
          + ", renewDeadline="
          + renewDeadline
          + ", retryPeriod="
          + retryPeriod
          + "]";
    }

    /** Builds {@link LeaderElection}. Not thread-safe. */
    public static final class Builder {

      private @Nullable String leaseNamespace;
      private @Nullable String leaseName;
      private Duration leaseDuration = DEFAULT_LEASE_DURATION;
      private Duration renewDeadline = DEFAULT_RENEW_DEADLINE;
      private Duration retryPeriod = DEFAULT_RETRY_PERIOD;

      private Builder() {}

      /**
       * Campaign for the Lease {@code namespace/name} instead of {@code <namespace>/<scheduler name>} (see
       * {@link LeaderElection#defaults()}).
       *
       * @param namespace a DNS-1123 label
       * @param name a DNS-1123 subdomain
       */
      public LeaderElection.Builder lease(String namespace, String name) {
        this.leaseNamespace = Objects.requireNonNull(namespace, "namespace");
        this.leaseName = Objects.requireNonNull(name, "name");
        return this;
      }

      /** A rival may take over {@code duration} after the leader's last renewal (15 s). */
      public LeaderElection.Builder leaseDuration(Duration duration) {
        this.leaseDuration = Objects.requireNonNull(duration, "leaseDuration");
        return this;
      }

      /** The leader stops leading when it could not renew for {@code deadline} (10 s). */
      public LeaderElection.Builder renewDeadline(Duration deadline) {
        this.renewDeadline = Objects.requireNonNull(deadline, "renewDeadline");
        return this;
      }

      /** A candidate tries again every {@code period}, jittered (2 s). */
      public LeaderElection.Builder retryPeriod(Duration period) {
        this.retryPeriod = Objects.requireNonNull(period, "retryPeriod");
        return this;
      }

      /**
       * @throws ConfigurationException naming the setting and its value, if the namespace is not a DNS-1123
       *     label, the name not a DNS-1123 subdomain, or a timing breaks a rule of {@link LeaderElection}
       */
      public LeaderElection build() {
        return build(POD_NAMESPACE);
      }

      /** {@link #build()}, with the pod's namespace read from {@code podNamespace} where none was given. */
      LeaderElection build(Path podNamespace) {
        if (leaseNamespace == null) {
          leaseNamespace = podNamespace(podNamespace).orElse(DEFAULT_LEASE_NAMESPACE);
        }
        if (leaseNamespace.length() > 63 || !DNS_1123_LABEL.matcher(leaseNamespace).matches()) {
          throw new ConfigurationException(
              "leaseNamespace must be a DNS-1123 label (lower-case letters, digits and '-', at most 63),"
                  + " was '"
                  + leaseNamespace
                  + "'");
        }
        if (leaseName != null) {
          requireLeaseName("leaseName", leaseName);
        }
        requireMillis("leaseDuration", leaseDuration);
        requireMillis("renewDeadline", renewDeadline);
        requireMillis("retryPeriod", retryPeriod);
        if (leaseDuration.toNanosPart() != 0) {
          throw new ConfigurationException(
              "leaseDuration must be a whole number of seconds (a Lease stores seconds), was "
                  + leaseDuration);
        }
        if (renewDeadline.compareTo(leaseDuration) >= 0) {
          throw new ConfigurationException(
              "renewDeadline " + renewDeadline + " must be shorter than leaseDuration " + leaseDuration);
        }
        var jitteredRetry = longestJitteredRetry(retryPeriod);
        if (renewDeadline.compareTo(jitteredRetry) <= 0) {
          throw new ConfigurationException(
              "renewDeadline "
                  + renewDeadline
                  + " must be longer than retryPeriod "
                  + retryPeriod
                  + " plus its jitter, "
                  + jitteredRetry);
        }
        return new LeaderElection(this);
      }

      private static void requireMillis(String name, Duration value) {
        if (value.toMillis() < 1) {
          throw new ConfigurationException(name + " must be at least 1 ms, was " + value);
        }
      }
    }
  }

  // The loop's settings are kept once, in the record the loop takes; the getters below read it.
  private final Connection connection;
  private final @Nullable LeaderElection leaderElection;
  private final SchedulerMetrics metrics;
  private final ControllerSettings settings;
  private final boolean replacesKubeScheduler;

  private Options(Builder b) {
    this.replacesKubeScheduler = b.replacesKubeScheduler;
    this.connection = b.connection;
    this.leaderElection = b.leaderElection;
    this.metrics = b.metrics;
    this.settings =
        new ControllerSettings(
            b.schedulerName,
            connection instanceof Connection.Fake ? BindMode.SET_NODE_NAME : BindMode.SUBRESOURCE,
            b.bindTimeout,
            b.volumeBindingTimeout,
            b.initialBackoff,
            b.maxBackoff,
            b.syncTimeout,
            b.unschedulableTimeout,
            b.assumedPodTtl,
            b.qps,
            b.burst,
            b.parallelBindings,
            b.shutdownTimeout,
            leaderElection == null ? null : leaderElection.settings(b.schedulerName),
            b.externalLeadership,
            b.podGroupSources,
            b.podGroupTimeout,
            b.watch,
            b.parallelism);
  }

  /** @return a builder that starts from the {@code DEFAULT_*} values, the default kubeconfig, no leader election and no metrics */
  public static Builder builder() {
    return new Builder();
  }

  /** @return the APIs whose pod groups are honoured */
  public Set<PodGroupRef.Source> podGroupSources() {
    return settings.podGroupSources();
  }

  /** @return how long a complete pod group may go unplaced before it is reported as timed out */
  public Duration podGroupTimeout() {
    return settings.podGroupTimeout();
  }

  /**
   * @return the cluster data watched from the start beyond what the controllers' first policies read; empty by
   *     default
   */
  public Set<ClusterData> watch() {
    return settings.watch();
  }

  /** @return where the cluster is; the default kubeconfig unless chosen */
  public Connection connection() {
    return connection;
  }

  /** @return the {@code spec.schedulerName} of the pods to place */
  public String schedulerName() {
    return settings.schedulerName();
  }

  /** @return how long one binding request may take */
  public Duration bindTimeout() {
    return settings.bindTimeout();
  }

  /**
   * @return how long a pod's volume bindings may take to be carried out before the pod is unreserved and
   *     tried again
   */
  public Duration volumeBindingTimeout() {
    return settings.volumeBindingTimeout();
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

  /** @return the longest a pod that fits nowhere waits for a helpful cluster event */
  public Duration unschedulableTimeout() {
    return settings.unschedulableTimeout();
  }

  /** @return how long a bound pod may stay unconfirmed by the watch; {@link Duration#ZERO} for ever */
  public Duration assumedPodTtl() {
    return settings.assumedPodTtl();
  }

  /** @return the sustained rate of writes (bindings; reports in a limit of their own), per second */
  public double qps() {
    return settings.qps();
  }

  /** @return how many writes may go at once before {@link #qps()} applies */
  public int burst() {
    return settings.burst();
  }

  /**
   * @return how many bindings may be in flight at once (and how many preemptors may evict their victims at once,
   *     and how many victims be deleted at once)
   */
  public int parallelBindings() {
    return settings.parallelBindings();
  }

  /**
   * @return how many threads may filter and score the nodes for one pod, as set ({@value #DEFAULT_PARALLELISM}
   *     by default); the controller uses at most one per available processor
   */
  public int parallelism() {
    return settings.parallelism();
  }

  /** @return how long {@code close()} waits for the bindings in flight */
  public Duration shutdownTimeout() {
    return settings.shutdownTimeout();
  }

  /** @return how replicas elect the one that schedules; empty (the default) to schedule without election */
  public Optional<LeaderElection> leaderElection() {
    return Optional.ofNullable(leaderElection);
  }

  /**
   * @return whether {@code default-scheduler}, kube-scheduler's own name, may be scheduled for ({@link
   *     Builder#replacesKubeScheduler()})
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  public boolean replacesKubeScheduler() {
    return replacesKubeScheduler;
  }

  /** @return whether the application says when its controllers lead ({@link Builder#externalLeadership()}) */
  public boolean externalLeadership() {
    return settings.externalLeadership();
  }

  /** @return what records the scheduling loop's metrics; {@link SchedulerMetrics#NONE} by default */
  public SchedulerMetrics metrics() {
    return metrics;
  }

  /** @return the scheduling loop's settings, for {@link DefaultClient} */
  ControllerSettings controllerSettings() {
    return settings;
  }

  /**
   * @throws ConfigurationException if {@code name} is blank or kube-scheduler's own
   */
  static void requireSchedulerName(String name, boolean replacesKubeScheduler) {
    if (name.isBlank()) {
      throw new ConfigurationException("schedulerName must not be blank, was '" + name + "'");
    }
    if (!replacesKubeScheduler && name.equals(SchedulingConstants.KUBE_SCHEDULER_NAME)) {
      throw new ConfigurationException(
          "schedulerName must not be '"
              + name
              + "': that is kube-scheduler's, and two schedulers binding the same pods fight over them (where"
              + " kube-scheduler does not run, opt in with Options.Builder.replacesKubeScheduler())");
    }
  }

  /** @throws ConfigurationException naming {@code option}, if {@code name} cannot name a Lease */
  static void requireLeaseName(String option, String name) {
    if (name.length() > 253 || !DNS_1123_SUBDOMAIN.matcher(name).matches()) {
      throw new ConfigurationException(
          option
              + " must be a DNS-1123 subdomain to name a Lease (lower-case letters, digits, '-' and '.', at"
              + " most 253), was '"
              + name
              + "'");
    }
  }

  @Override
  public String toString() {
    return "Options[connection="
        + connection
        + ", schedulerName="
        + settings.schedulerName()
        + ", bindTimeout="
        + settings.bindTimeout()
        + ", volumeBindingTimeout="
        + settings.volumeBindingTimeout()
        + ", initialBackoff="
        + settings.initialBackoff()
        + ", maxBackoff="
        + settings.maxBackoff()
        + ", syncTimeout="
        + settings.syncTimeout()
        + ", unschedulableTimeout="
        + settings.unschedulableTimeout()
        + ", assumedPodTtl="
        + settings.assumedPodTtl()
        + ", qps="
        + settings.qps()
        + ", burst="
        + settings.burst()
        + ", parallelBindings="
        + settings.parallelBindings()
        + ", parallelism="
        + settings.parallelism()
        + ", shutdownTimeout="
        + settings.shutdownTimeout()
        + ", leaderElection="
        + (leaderElection != null ? leaderElection : settings.externalLeadership() ? "external" : "off")
        + ", metrics="
        + (metrics == SchedulerMetrics.NONE ? "none" : metrics)
        + ", podGroupSources="
        + settings.podGroupSources()
        + ", podGroupTimeout="
        + settings.podGroupTimeout()
        + ", watch="
        + settings.watch()
        + "]";
  }

  /** Builds {@link Options}. Not thread-safe. */
  public static final class Builder {

    private Connection connection = new Connection.Kubeconfig(Optional.empty());
    private String schedulerName = DEFAULT_SCHEDULER_NAME;
    private Duration bindTimeout = DEFAULT_BIND_TIMEOUT;
    private Duration volumeBindingTimeout = DEFAULT_VOLUME_BINDING_TIMEOUT;
    private Duration initialBackoff = DEFAULT_INITIAL_BACKOFF;
    private Duration maxBackoff = DEFAULT_MAX_BACKOFF;
    private Duration syncTimeout = DEFAULT_SYNC_TIMEOUT;
    private Duration unschedulableTimeout = DEFAULT_UNSCHEDULABLE_TIMEOUT;
    private Duration assumedPodTtl = DEFAULT_ASSUMED_POD_TTL;
    private double qps = DEFAULT_QPS;
    private int burst = DEFAULT_BURST;
    private int parallelBindings = DEFAULT_PARALLEL_BINDINGS;
    private int parallelism = DEFAULT_PARALLELISM;
    private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;
    private @Nullable LeaderElection leaderElection;
    private boolean externalLeadership;
    private boolean replacesKubeScheduler;
    private SchedulerMetrics metrics = SchedulerMetrics.NONE;
    private Set<PodGroupRef.Source> podGroupSources = EnumSet.allOf(PodGroupRef.Source.class);
    private Duration podGroupTimeout = DEFAULT_POD_GROUP_TIMEOUT;
    private Set<ClusterData> watch = Set.of();

    private Builder() {}

    /** Connect as {@code connection} says; the last connection chosen wins. */
    public Builder connection(Connection connection) {
      this.connection = Objects.requireNonNull(connection, "connection");
      return this;
    }

    /** Connect with the kubeconfig at {@code path} (it wins over {@code KUBECONFIG}). */
    public Builder kubeconfig(Path path) {
      return connection(new Connection.Kubeconfig(Optional.of(path)));
    }

    /** Connect with the pod's service account. */
    public Builder inCluster() {
      return connection(new Connection.InCluster());
    }

    /** Connect with (a copy of) a fabric8 configuration (see {@link Connection.Configured}). */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    public Builder config(Config config) {
      return connection(new Connection.Configured(config));
    }

    /**
     * Use the application's own fabric8 client, which the library never closes (see {@link
     * Connection.Shared}).
     */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    public Builder kubernetesClient(KubernetesClient client) {
      return connection(new Connection.Shared(client));
    }

    /** Start and connect to an embedded fake cluster (see {@link Connection.Fake}). */
    public Builder fake() {
      return connection(new Connection.Fake());
    }

    /**
     * Place the pods whose {@code spec.schedulerName} is {@code name} ({@value Options#DEFAULT_SCHEDULER_NAME}
     * by default). Must not be blank nor kube-scheduler's {@code default-scheduler} (unless {@link
     * #replacesKubeScheduler()}).
     */
    public Builder schedulerName(String name) {
      this.schedulerName = Objects.requireNonNull(name, "schedulerName");
      return this;
    }

    /**
     * Allow kube-scheduler's own name, {@code default-scheduler}, as the scheduler name or a profile's: this
     * scheduler then places the pods that name no scheduler. Only for a cluster where it replaces kube-scheduler,
     * which must not run there: two schedulers binding the same pods fight over them. Off by default.
     */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    public Builder replacesKubeScheduler() {
      this.replacesKubeScheduler = true;
      return this;
    }

    /** Give one binding request at most {@code timeout} (30 s); positive. */
    public Builder bindTimeout(Duration timeout) {
      this.bindTimeout = Objects.requireNonNull(timeout, "bindTimeout");
      return this;
    }

    /**
     * Wait at most {@code timeout} (600 s, kube-scheduler's VolumeBindingArgs {@code bindTimeoutSeconds}) for a
     * pod's volume bindings to be carried out: its static volumes bound to its claims by the PersistentVolume
     * controller, its delayed-binding claims provisioned for the chosen node. Then the pod's volume
     * reservations are released and it is tried again after backoff. Waiting pods hold no binding slot.
     * Positive.
     */
    public Builder volumeBindingTimeout(Duration timeout) {
      this.volumeBindingTimeout = Objects.requireNonNull(timeout, "volumeBindingTimeout");
      return this;
    }

    /**
     * Retry a failed pod after {@code initial}, doubling per attempt up to {@code max} (1 s to 10 s, as
     * kube-scheduler); both positive, {@code max} not shorter than {@code initial}.
     */
    public Builder backoff(Duration initial, Duration max) {
      this.initialBackoff = Objects.requireNonNull(initial, "initialBackoff");
      this.maxBackoff = Objects.requireNonNull(max, "maxBackoff");
      return this;
    }

    /** Give a starting controller at most {@code timeout} to list the cluster (60 s); positive. */
    public Builder syncTimeout(Duration timeout) {
      this.syncTimeout = Objects.requireNonNull(timeout, "syncTimeout");
      return this;
    }

    /**
     * Try a pod that fits nowhere again after at most {@code timeout} even if no cluster event could have
     * helped it (kube-scheduler's {@code podMaxInUnschedulablePodsDuration}, 5 min); positive.
     */
    public Builder unschedulableTimeout(Duration timeout) {
      this.unschedulableTimeout = Objects.requireNonNull(timeout, "unschedulableTimeout");
      return this;
    }

    /**
     * Drop the assumption of a pod whose binding succeeded if the watch has not shown it bound after {@code
     * ttl}, and schedule it again (15 min); {@link Duration#ZERO} keeps it until the watch shows it. Not
     * negative.
     */
    public Builder assumedPodTtl(Duration ttl) {
      this.assumedPodTtl = Objects.requireNonNull(ttl, "assumedPodTtl");
      return this;
    }

    /**
     * Limit the bindings to {@code qps} per second, with bursts of up to {@code burst} (kube-scheduler's
     * client: 50 and 100), and the reports (events, pod conditions) alike, in a limit of their own, as
     * kube-scheduler's event client has. fabric8 has no limit of its own. {@code qps} positive and finite,
     * {@code burst} at least 1.
     */
    public Builder rateLimit(double qps, int burst) {
      this.qps = qps;
      this.burst = burst;
      return this;
    }

    /**
     * Let up to {@code count} bindings be in flight while the scheduler decides the next pods (16), as many
     * preemptors evict their victims at once, and as many of their victims (all but each one's last, which
     * goes after the others) be deleted at once; at least 1.
     */
    public Builder parallelBindings(int count) {
      this.parallelBindings = count;
      return this;
    }

    /**
     * Let up to {@code threads} threads filter and score the nodes for one pod (kube-scheduler's {@code
     * parallelism}, {@value Options#DEFAULT_PARALLELISM}); at least 1. The controller runs them in a pool of its
     * own, {@code kubesched-filter-<schedulerName>-N}, created and closed with it, and uses at most as many as
     * {@link Runtime#availableProcessors()} (which follows a container's CPU limit): this work only computes,
     * so more threads than processors cannot finish it sooner. 1, or a single processor, keeps every decision
     * on the scheduling thread. A decision over fewer than 500 nodes stays there anyway (handing work out costs
     * about what it saves there), and a decision is the same whatever the number of threads: the policy ({@link
     * io.kubesched.api.FinderFunc#withParallelism}) decides exactly as it does on one. A policy that does not
     * share its work out (a plain {@code FinderFunc}) is not affected.
     */
    public Builder parallelism(int threads) {
      this.parallelism = threads;
      return this;
    }

    /** Let {@code close()} wait up to {@code timeout} for bindings in flight (30 s); positive. */
    public Builder shutdownTimeout(Duration timeout) {
      this.shutdownTimeout = Objects.requireNonNull(timeout, "shutdownTimeout");
      return this;
    }

    /**
     * Schedule only while elected leader, with kube-scheduler's settings ({@link LeaderElection#defaults()}:
     * the Lease {@code <namespace>/<schedulerName>}, the pod's namespace in a pod and {@code kube-system}
     * elsewhere, 15 s / 10 s / 2 s). A replica that loses the lease stops
     * scheduling and campaigns again; the process goes on. Needs RBAC on {@code coordination.k8s.io} leases.
     */
    public Builder leaderElection() {
      return leaderElection(LeaderElection.defaults());
    }

    /** Schedule only while elected leader, as {@code election} says (see {@link #leaderElection()}). */
    public Builder leaderElection(LeaderElection election) {
      this.leaderElection = Objects.requireNonNull(election, "leaderElection");
      return this;
    }

    /**
     * Schedule only while the application leads, as it tells each controller ({@link
     * Controller#setLeading(boolean)}), instead of an election of the library's own: for an operator that
     * already campaigns (java-operator-sdk's leader election, Spring's, its own), so that one Lease decides for
     * both and no second one needs RBAC. A controller starts as a follower: it lists and watches the cluster and
     * keeps its queue, and schedules from the first {@code setLeading(true)}. Excludes {@link
     * #leaderElection()}.
     */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    public Builder externalLeadership() {
      this.externalLeadership = true;
      return this;
    }

    /**
     * Record what the scheduling loop does (attempts, latencies, pending pods) into {@code metrics}; for
     * kube-scheduler's metric names in a Micrometer registry, use {@code
     * io.kubesched.micrometer.MicrometerMetrics} from {@code io.kubesched:scheduler-micrometer}.
     */
    public Builder metrics(SchedulerMetrics metrics) {
      this.metrics = Objects.requireNonNull(metrics, "metrics");
      return this;
    }

    /**
     * Honour pod groups of these sources only (both by default): each source's {@code PodGroup} objects are
     * watched where the cluster serves its API, and a pod naming a group of a source left out, or of a source
     * the cluster does not serve (logged once at start), is scheduled on its own. An empty set turns gang
     * scheduling off.
     */
    public Builder podGroupSources(Set<PodGroupRef.Source> sources) {
      this.podGroupSources = Set.copyOf(Objects.requireNonNull(sources, "podGroupSources"));
      return this;
    }

    /**
     * Report a pod group as timed out (a {@code FailedScheduling} event and its status) once it has had all
     * its members for {@code timeout} without being placed, where the group sets no timeout of its own (5
     * min); positive. The group goes on waiting.
     */
    public Builder podGroupTimeout(Duration timeout) {
      this.podGroupTimeout = Objects.requireNonNull(timeout, "podGroupTimeout");
      return this;
    }

    /**
     * Watch {@code data} from the start, beyond what the controllers' first policies {@linkplain
     * io.kubesched.api.FinderFunc#reads() read} (nothing more by default), so that {@link
     * Controller#replacePolicy} may later hand a profile a policy that reads it: a controller watches what it
     * watches from its start to its close, and refuses a policy that reads anything else. {@code
     * EnumSet.allOf(ClusterData.class)} lets any policy in, at the cost of a watch, memory and the RBAC
     * permission to list and watch each kind (see the RBAC in docs/operations.md). The last call wins.
     */
    public Builder watch(Set<ClusterData> data) {
      this.watch = Set.copyOf(Objects.requireNonNull(data, "watch"));
      return this;
    }

    /**
     * @throws ConfigurationException naming the option and its value, if the scheduler name is blank or
     *     {@code default-scheduler} (without {@link #replacesKubeScheduler()}), a duration is not positive (the assumed-pod TTL: negative), the maximum
     *     backoff is shorter than the initial one, {@code qps} is not a positive finite number, {@code burst},
     *     {@code parallelBindings} or {@code parallelism} is below 1, or leader election would use a Lease named after a
     *     scheduler name that cannot name one
     */
    public Options build() {
      requireSchedulerName(schedulerName, replacesKubeScheduler);
      requirePositive("bindTimeout", bindTimeout);
      requirePositive("volumeBindingTimeout", volumeBindingTimeout);
      requirePositive("initialBackoff", initialBackoff);
      requirePositive("maxBackoff", maxBackoff);
      if (maxBackoff.compareTo(initialBackoff) < 0) {
        throw new ConfigurationException(
            "maxBackoff " + maxBackoff + " must not be shorter than initialBackoff " + initialBackoff);
      }
      requirePositive("syncTimeout", syncTimeout);
      requirePositive("unschedulableTimeout", unschedulableTimeout);
      if (assumedPodTtl.isNegative()) {
        throw new ConfigurationException("assumedPodTtl must not be negative, was " + assumedPodTtl);
      }
      if (!(qps > 0) || Double.isInfinite(qps)) {
        throw new ConfigurationException("qps must be a positive finite number, was " + qps);
      }
      if (burst < 1) {
        throw new ConfigurationException("burst must be at least 1, was " + burst);
      }
      if (parallelBindings < 1) {
        throw new ConfigurationException("parallelBindings must be at least 1, was " + parallelBindings);
      }
      if (parallelism < 1) {
        throw new ConfigurationException("parallelism must be at least 1, was " + parallelism);
      }
      requirePositive("shutdownTimeout", shutdownTimeout);
      requirePositive("podGroupTimeout", podGroupTimeout);
      if (leaderElection != null && leaderElection.leaseName().isEmpty()) {
        requireLeaseName("schedulerName (the default leaseName)", schedulerName);
      }
      if (leaderElection != null && externalLeadership) {
        throw new ConfigurationException(
            "leaderElection and externalLeadership exclude each other: the scheduler either campaigns for a Lease"
                + " of its own (" + leaderElection + ") or schedules while the application says it leads");
      }
      return new Options(this);
    }

    private static void requirePositive(String option, Duration value) {
      if (value.isNegative() || value.isZero()) {
        throw new ConfigurationException(option + " must be positive, was " + value);
      }
    }
  }
}
