package io.kubesched.server;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.kubesched.api.BuildInfo;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.SchedulerException;
import io.kubesched.facade.SchedulerSetup;
import io.kubesched.micrometer.MicrometerMetrics;
import io.kubesched.policy.config.PluginRegistry;
import io.kubesched.policy.config.SchedulerConfiguration;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler as a program: {@code kubesched-server --config FILE [flags]}, with kube-scheduler's flags (see
 * {@link Flags}); {@code --version} prints one line on standard output and exits; {@code --write-config-to FILE}
 * writes the effective configuration and exits without connecting; {@code kubesched-server simulate ...} asks a
 * what-if question of the cluster and exits ({@link SimulateCommand}).
 *
 * <p>Exit status: 0 after SIGTERM or SIGINT once everything stopped (bindings in flight finished, lease
 * released), and after {@code --help}, {@code --version} or {@code --write-config-to}; 1 on a bad configuration file, a connection that cannot be set up, a port that cannot be bound
 * or a cluster that cannot be listed, with a one-line message on standard error; 2 on a bad command line.
 *
 * <p>The default program, with kube-scheduler's plugins only; a program with plugins of its own calls {@link
 * KubeschedServer}.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class Main {

  private static final Logger LOG = LoggerFactory.getLogger(Main.class);

  static final int BAD_CONFIG = 1;
  static final int BAD_USAGE = 2;

  /** Set before an error exit, so that the shutdown hook leaves the exit status alone. */
  private static final AtomicBoolean EXITING_ON_ERROR = new AtomicBoolean();

  private Main() {}

  public static void main(String[] args) throws InterruptedException {
    KubeschedServer.builder().build().main(args);
  }

  /** {@link KubeschedServer#main}: the program, with {@code plugins} known to its configuration. */
  static void main(String[] args, PluginRegistry plugins) throws InterruptedException {
    int status = run(List.of(args), System.getenv(), System.out, System.err, plugins);
    if (status != 0) {
      EXITING_ON_ERROR.set(true);
      System.exit(status);
    }
  }

  /**
   * Parses, reads the configuration, starts the server and serves until the shutdown hook stops it. With
   * {@code --help} or {@code --version} it only prints, before reading anything or connecting.
   *
   * @param out where {@code --version} prints
   * @param err where the usage text and the one-line errors go
   * @return the exit status: 0 once stopped or printed, {@link #BAD_CONFIG} or {@link #BAD_USAGE} (with a
   *     one-line message on {@code err})
   */
  static int run(List<String> args, Map<String, String> env, PrintStream out, PrintStream err)
      throws InterruptedException {
    return run(args, env, out, err, PluginRegistry.empty());
  }

  /** {@link #run(List, Map, PrintStream, PrintStream)} with {@code plugins} known to the configuration. */
  static int run(
      List<String> args, Map<String, String> env, PrintStream out, PrintStream err, PluginRegistry plugins)
      throws InterruptedException {
    if (!args.isEmpty() && args.get(0).equals(SimulateCommand.NAME)) {
      return SimulateCommand.run(args.subList(1, args.size()), env, out, err, plugins);
    }
    if (Flags.wantsHelp(args)) {
      err.println(Flags.usage());
      return 0;
    }
    if (Flags.wantsVersion(args)) {
      out.println(version());
      return 0;
    }
    Flags flags;
    try {
      flags = Flags.parse(args);
      // The one place logging is set up, from --logging-format and -v, before anything logs.
      Logging.configure(flags.loggingFormat(), flags.verbosity());
    } catch (ConfigurationException e) {
      err.println(oneLine(e) + "\n" + Flags.usage());
      return BAD_USAGE;
    }
    SchedulerServer server;
    try {
      if (flags.writeConfigTo().isPresent()) {
        return writeConfig(flags, plugins);
      }
      server = create(flags, env, plugins);
    } catch (ConfigurationException e) {
      err.println(oneLine(e));
      return BAD_CONFIG;
    }
    return serve(server, err);
  }

  /**
   * @throws ConfigurationException naming the file, the YAML path and the value, if the configuration is
   *     bad
   */
  static SchedulerServer create(Flags flags, Map<String, String> env, PluginRegistry plugins) {
    var source = "config " + flags.config();
    var setup = SchedulerSetup.of(configuration(flags, plugins), source);
    var registry = MetricsRegistry.create();
    var connection = ServerOptions.connection(flags.kubeconfig(), setup.kubeconfig(), env);
    var options = ServerOptions.options(setup, connection, MicrometerMetrics.of(registry));
    var routes = Map.<String, Route>of(
        ConfigzRoute.PATH, new ConfigzRoute(setup.configuration()));
    return new SchedulerServer(
        options, setup.profiles(), flags.policyCrd(), flags.serving(), routes, env, registry, plugins, false);
  }

  /**
   * @return the configuration file, with the {@code --leader-elect*} flags given replacing its {@code
   *     leaderElection} settings before they are validated, as kube-scheduler applies them
   * @throws ConfigurationException naming the file (and the flags), the YAML path and the value
   */
  static SchedulerConfiguration configuration(Flags flags, PluginRegistry plugins) {
    var configuration = SchedulerConfiguration.read(flags.config(), plugins);
    var election = flags.leaderElection();
    if (!election.any()) {
      return configuration;
    }
    return configuration.withLeaderElection(
        election.applyTo(configuration.leaderElection()), flags.config() + " with the --leader-elect* flags");
  }

  /**
   * {@code --write-config-to}: writes the effective configuration (kube's defaults filled in, the flags applied)
   * as kube-scheduler does, connecting to nothing.
   *
   * @return 0 once written
   * @throws ConfigurationException if the configuration is bad or the file cannot be written
   */
  private static int writeConfig(Flags flags, PluginRegistry plugins) {
    var file = flags.writeConfigTo().orElseThrow();
    var yaml = configuration(flags, plugins).toYaml();
    try {
      Files.writeString(file, yaml);
    } catch (IOException e) {
      throw new ConfigurationException("--write-config-to " + file + ": cannot write: " + e.getMessage(), e);
    }
    LOG.info("Wrote configuration to {}", file);
    return 0;
  }

  /**
   * Starts {@code server}, with a shutdown hook that closes it and then ends the process with status 0 (a
   * JVM ended by a signal would otherwise exit with 128 + the signal), and waits until it is closed.
   *
   * @return 0 once closed; {@link #BAD_CONFIG} (with a one-line message on {@code err}) if it cannot start
   */
  static int serve(SchedulerServer server, PrintStream err) throws InterruptedException {
    var hook =
        new Thread(
            () -> {
              server.close();
              if (!EXITING_ON_ERROR.get()) {
                Runtime.getRuntime().halt(0);
              }
            },
            "kubesched-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      server.start();
    } catch (IOException | SchedulerException e) { // ConfigurationException is a SchedulerException
      LOG.debug("Start failed", e);
      err.println(oneLine(e));
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook runs already and closes the server
      }
      server.close();
      return BAD_CONFIG;
    }
    server.awaitTermination();
    return 0;
  }

  /** @return {@code kubesched-server VERSION (revision COMMIT), Java VERSION} */
  static String version() {
    var build = BuildInfo.current();
    return "kubesched-server " + build.version() + " (revision " + build.revision() + "), Java "
        + System.getProperty("java.version");
  }

  private static String oneLine(Exception e) {
    var message = e instanceof IOException ? "cannot serve the endpoints: " + e : e.getMessage();
    return "kubesched-server: " + String.valueOf(message).replaceAll("\\s*\\R\\s*", " ");
  }
}
