package io.kubesched.server;

import io.kubesched.api.BuildInfo;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.SchedulerException;
import io.kubesched.facade.SchedulerSetup;
import io.kubesched.micrometer.MicrometerMetrics;
import io.kubesched.policy.config.SchedulerConfiguration;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler as a program: {@code kubesched-server --config FILE [--kubeconfig FILE] [--port N]
 * [--no-policy-crd]} (see {@link Flags}); {@code --version} prints one line on standard output and exits.
 *
 * <p>Exit status: 0 after SIGTERM or SIGINT once everything stopped (bindings in flight finished, lease
 * released), and after {@code --help} or {@code --version}; 1 on a bad configuration file, a connection that cannot be set up, a port that cannot be bound
 * or a cluster that cannot be listed, with a one-line message on standard error; 2 on a bad command line.
 */
public final class Main {

  private static final Logger LOG = LoggerFactory.getLogger(Main.class);

  static final int BAD_CONFIG = 1;
  static final int BAD_USAGE = 2;

  /** Set before an error exit, so that the shutdown hook leaves the exit status alone. */
  private static final AtomicBoolean EXITING_ON_ERROR = new AtomicBoolean();

  private Main() {}

  public static void main(String[] args) throws InterruptedException {
    int status = run(List.of(args), System.getenv(), System.out, System.err);
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
    if (Flags.wantsHelp(args)) {
      err.println(Flags.USAGE);
      return 0;
    }
    if (Flags.wantsVersion(args)) {
      out.println(version());
      return 0;
    }
    Flags flags;
    try {
      flags = Flags.parse(args);
      Logging.configure(flags.loggingFormat(), flags.verbosity());
    } catch (ConfigurationException e) {
      err.println(oneLine(e) + "\n" + Flags.USAGE);
      return BAD_USAGE;
    }
    SchedulerServer server;
    try {
      server = create(flags, env);
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
  static SchedulerServer create(Flags flags, Map<String, String> env) {
    var source = "config " + flags.config();
    var setup = SchedulerSetup.of(SchedulerConfiguration.read(flags.config()), source);
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    var connection = ServerOptions.connection(flags.kubeconfig(), setup.kubeconfig(), env);
    var options = ServerOptions.options(setup, connection, MicrometerMetrics.of(registry));
    return new SchedulerServer(
        options, setup.profiles(), flags.policyCrd(), new InetSocketAddress(flags.port()), registry);
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
