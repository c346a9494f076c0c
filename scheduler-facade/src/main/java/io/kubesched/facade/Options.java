package io.kubesched.facade;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.SchedulingConstants;
import io.kubesched.binder.BindMode;
import io.kubesched.informer.ControllerSettings;
import java.nio.file.Path;
import java.time.Duration;
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

  private Options(Connection connection, @Nullable Path kubeconfig, ControllerSettings settings) {
    this.connection = connection;
    this.kubeconfig = kubeconfig;
    this.settings = settings;
  }

  /** @return a builder with the defaults: kubeconfig, scheduler name {@code kubesched}, 30 s bind
   *     timeout, backoff from 1 s doubling to 10 s, 60 s to list the cluster at start */
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

  /** @return the scheduling loop's settings */
  ControllerSettings controllerSettings() {
    return settings;
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
     * @throws ConfigurationException naming the option and its value, if the scheduler name is blank or
     *     {@code default-scheduler}, a duration is not positive, or the maximum backoff is shorter than the
     *     initial one
     */
    public Options build() {
      if (schedulerName.isBlank()) {
        throw new ConfigurationException("schedulerName must not be blank");
      }
      if (schedulerName.equals(SchedulingConstants.DEFAULT_SCHEDULER_NAME)) {
        throw new ConfigurationException(
            "schedulerName must not be '" + schedulerName + "': that is kube-scheduler's, and two"
                + " schedulers binding the same pods fight over them");
      }
      var bindMode = connection == Connection.FAKE ? BindMode.SET_NODE_NAME : BindMode.SUBRESOURCE;
      try {
        return new Options(
            connection,
            kubeconfig,
            new ControllerSettings(
                schedulerName, bindMode, bindTimeout, initialBackoff, maxBackoff, syncTimeout));
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException(e.getMessage(), e);
      }
    }
  }
}
