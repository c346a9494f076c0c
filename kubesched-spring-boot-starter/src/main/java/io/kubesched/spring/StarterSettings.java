package io.kubesched.spring;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.FinderFunc;
import io.kubesched.facade.Options;
import io.kubesched.facade.SchedulerSetup;
import io.kubesched.policy.config.SchedulerConfiguration;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code kubesched.*} properties and the {@code kubesched.config-file} together as the {@code Client}'s
 * options and the controller's profiles. The precedence, setting by setting: a property given wins over the
 * file, the file over the library's defaults; the customizers come after both. What neither can give way on is
 * refused with a {@link ConfigurationException} naming the property and the file's setting: leader election
 * (the properties' or the file's) with {@code external-leadership}, the file's {@code
 * clientConnection.kubeconfig} with the application's own client, a {@code FinderFunc} bean whose profile is
 * not clear. Called on the thread that creates the context.
 */
final class StarterSettings {

  private static final Logger LOG = LoggerFactory.getLogger(StarterSettings.class);

  /** How messages name the file property. */
  static final String CONFIG_FILE = "kubesched.config-file";

  private StarterSettings() {}

  /**
   * @return the file read and mapped, its messages starting with {@code kubesched.config-file} and the file
   * @throws ConfigurationException if it cannot be read, is not a KubeSchedulerConfiguration kubesched accepts or
   *     breaks a rule of {@link Options}: the message names the file, the field's YAML path and the value
   */
  static SchedulerSetup read(Path file) {
    SchedulerConfiguration configuration;
    try {
      configuration = SchedulerConfiguration.read(file);
    } catch (ConfigurationException e) {
      throw new ConfigurationException(CONFIG_FILE + ": " + e.getMessage(), e);
    }
    return SchedulerSetup.of(configuration, CONFIG_FILE + " " + file);
  }

  /**
   * @param properties the properties
   * @param file the configuration file, if {@code kubesched.config-file} names one
   * @param applicationsClient whether the application's {@code KubernetesClient} bean is the connection
   * @return the builder, before the customizers
   * @throws ConfigurationException as the class says
   */
  static Options.Builder options(
      KubeschedProperties properties, @Nullable SchedulerSetup file, boolean applicationsClient) {
    var options = Options.builder().schedulerName(schedulerName(properties, file));
    if (file != null) {
      file.applyTo(options);
    }
    if (properties.parallelism() != null) {
      options.parallelism(properties.parallelism());
    }
    if (!applicationsClient) {
      var kubeconfig =
          Optional.ofNullable(properties.kubeconfig()).or(() -> file != null ? file.kubeconfig() : Optional.empty());
      kubeconfig.ifPresent(options::kubeconfig);
    } else if (properties.kubeconfig() != null) {
      throw new ConfigurationException(
          "kubesched.kubeconfig " + properties.kubeconfig() + " cannot be honoured: the application's"
              + " KubernetesClient bean is the connection; remove kubesched.kubeconfig");
    } else if (file != null && file.kubeconfig().isPresent()) {
      throw new ConfigurationException(
          file.source() + ": clientConnection.kubeconfig " + file.kubeconfig().get() + " cannot be honoured: the"
              + " application's KubernetesClient bean is the connection; remove clientConnection.kubeconfig from"
              + " the file");
    }
    leaderElection(properties, file).ifPresent(options::leaderElection);
    if (properties.externalLeadership()) {
      if (file != null && file.leaderElection().isPresent() && properties.leaderElection().enabled() == null) {
        throw new ConfigurationException(
            "kubesched.external-leadership and the leaderElection of " + file.source() + " (leaderElect true,"
                + " kube-scheduler's default where the file leaves it out) exclude each other: set"
                + " leaderElection.leaderElect to false in the file, or kubesched.leader-election.enabled=false");
      }
      options.externalLeadership();
    }
    return options;
  }

  /**
   * @param properties the properties
   * @param file the configuration file
   * @param policy the application's {@code FinderFunc} bean, if it has one
   * @return the file's profiles, each scheduler name with its policy; the one {@code policy} places ({@code
   *     kubesched.scheduler-name}, else the file's only profile) replaced by it
   * @throws ConfigurationException if {@code kubesched.scheduler-name} names none of the file's profiles, or a
   *     {@code policy} comes with a file of several profiles and no {@code kubesched.scheduler-name}
   */
  static Map<String, FinderFunc> profiles(
      KubeschedProperties properties, SchedulerSetup file, @Nullable FinderFunc policy) {
    schedulerName(properties, file);
    var profiles = new LinkedHashMap<>(file.profiles());
    if (policy == null) {
      return Collections.unmodifiableMap(profiles);
    }
    String placed;
    if (properties.schedulerName() != null) {
      placed = properties.schedulerName();
    } else if (profiles.size() == 1) {
      placed = profiles.keySet().iterator().next();
    } else {
      throw new ConfigurationException(
          "the application's FinderFunc bean and " + file.source() + " with the profiles " + profiles.keySet()
              + ": set kubesched.scheduler-name to the profile the bean places");
    }
    profiles.put(placed, policy);
    LOG.info(
        "Profile {}: the application's FinderFunc bean places its pods, in place of the plugins of {}",
        placed,
        file.source());
    return Collections.unmodifiableMap(profiles);
  }

  /**
   * @return {@code kubesched.scheduler-name}; without it, the library's default, or the file's first profile
   *     (sorted), which names the controller's threads and its default Lease
   * @throws ConfigurationException if {@code kubesched.scheduler-name} names none of the file's profiles
   */
  private static String schedulerName(KubeschedProperties properties, @Nullable SchedulerSetup file) {
    var name = properties.schedulerName();
    if (file == null) {
      return name != null ? name : Options.DEFAULT_SCHEDULER_NAME;
    }
    var names = file.profiles().keySet();
    if (name == null) {
      return names.stream().sorted().findFirst().orElseThrow();
    }
    if (!names.contains(name)) {
      throw new ConfigurationException(
          "kubesched.scheduler-name '" + name + "' names none of the profiles of " + file.source() + ": "
              + names);
    }
    return name;
  }

  /**
   * @return the election: {@code kubesched.leader-election.enabled} if given, else the file's; its timings the
   *     file's, its Lease the properties' where they name one, else the file's, else the library's default
   */
  private static Optional<Options.LeaderElection> leaderElection(
      KubeschedProperties properties, @Nullable SchedulerSetup file) {
    var election = properties.leaderElection();
    var files = file != null ? file.leaderElection() : Optional.<Options.LeaderElection>empty();
    boolean elect = election.enabled() != null ? election.enabled() : files.isPresent();
    if (!elect) {
      if (election.leaseNamespace() != null || election.leaseName() != null) {
        throw new ConfigurationException(
            "kubesched.leader-election.lease-namespace/lease-name (" + election.leaseNamespace() + "/"
                + election.leaseName() + ") name a Lease, but leader election is off ("
                + (election.enabled() != null
                    ? "kubesched.leader-election.enabled is false"
                    : file != null ? "leaderElect is false in " + file.source() : "kubesched.leader-election.enabled"
                        + " is not set")
                + "): turn it on or remove them");
      }
      return Optional.empty();
    }
    var lease = Options.LeaderElection.builder();
    files.ifPresent(
        f -> lease.leaseDuration(f.leaseDuration()).renewDeadline(f.renewDeadline()).retryPeriod(f.retryPeriod()));
    var namespace = election.leaseNamespace() != null
        ? election.leaseNamespace()
        : files.map(Options.LeaderElection::leaseNamespace).orElse(null);
    var name = election.leaseName() != null
        ? election.leaseName()
        : files.flatMap(Options.LeaderElection::leaseName).orElse(null);
    if (namespace != null || name != null) {
      lease.lease(
          namespace != null ? namespace : Options.LeaderElection.defaults().leaseNamespace(),
          name != null ? name : schedulerName(properties, file));
    }
    try {
      return Optional.of(lease.build());
    } catch (ConfigurationException e) {
      throw new ConfigurationException("kubesched.leader-election: " + e.getMessage(), e);
    }
  }
}
