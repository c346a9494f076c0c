package io.kubesched.server;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.policy.config.PluginRegistry;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.Scorer;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * kubesched-server as a library: the same program, with filters and scorers of one's own that its
 * KubeSchedulerConfiguration (and its SchedulingPolicy custom resources) may enable by name, as they enable
 * kube-scheduler's plugins. A platform team's scheduler is then a {@code main} of a few lines, built into its own
 * jar and image, instead of a fork:
 *
 * <pre>{@code
 * public static void main(String[] args) throws InterruptedException {
 *   KubeschedServer.builder()
 *       .filter("AvoidDrainingNodes", DrainingArgs.class, AvoidDrainingNodes::new)
 *       .build()
 *       .main(args);
 * }
 * }</pre>
 *
 * and its configuration enables the plugin by that name:
 *
 * <pre>{@code
 * profiles:
 *   - schedulerName: platform-scheduler
 *     plugins:
 *       filter:
 *         enabled: [{name: AvoidDrainingNodes}]
 *     pluginConfig:
 *       - name: AvoidDrainingNodes
 *         args: {label: example.com/draining}
 * }</pre>
 *
 * How names, arguments (a record per plugin, read strictly) and factories work: {@link PluginRegistry}. The default
 * program, {@link Main}, is {@code KubeschedServer.builder().build().main(args)}.
 *
 * <p>Immutable and thread-safe; the builder is for one thread.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class KubeschedServer {

  private final PluginRegistry plugins;

  private KubeschedServer(PluginRegistry plugins) {
    this.plugins = plugins;
  }

  /** @return a builder with no plugin of one's own registered */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * @return the plugins its configuration may enable besides kube-scheduler's: for tests that read the
   *     configuration file as the server will ({@code SchedulerConfiguration.read(file, server.plugins())})
   */
  public PluginRegistry plugins() {
    return plugins;
  }

  /**
   * Runs the server as the {@code kubesched-server} program does, with the same command line, and serves until
   * SIGTERM or SIGINT: call it from the application's {@code main} only, with its arguments. It ends the process:
   * with status 0 once stopped by a signal; with 1 after a one-line message on standard error if the
   * configuration is bad (a plugin name neither kube's nor registered, arguments a registered plugin refuses) or the
   * server cannot start; with 2 on a bad command line. After {@code --help} or {@code --version} it returns.
   *
   * @param args the command line, as {@code kubesched-server} takes it
   * @throws InterruptedException if the calling thread is interrupted while the server runs
   */
  public void main(String... args) throws InterruptedException {
    Main.main(args, plugins);
  }

  @Override
  public String toString() {
    return "KubeschedServer[" + plugins + "]";
  }

  /** Registers the plugins; {@link #build()} makes the server. For one thread. */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  public static final class Builder {

    private PluginRegistry plugins = PluginRegistry.empty();

    private Builder() {}

    /**
     * Registers a filter that profiles may enable as {@code name}; see {@link PluginRegistry#filter}.
     *
     * @param <A> the arguments' type
     * @return this builder
     * @throws IllegalArgumentException as {@link PluginRegistry#filter} does: a name kube-scheduler has, one
     *     registered twice, an arguments type that is not a record
     */
    public <A extends Record> Builder filter(
        String name, Class<A> argsType, Function<? super A, ? extends Filter> factory) {
      plugins = plugins.filter(name, argsType, factory);
      return this;
    }

    /**
     * Registers a scorer that profiles may enable as {@code name}, with a weight; see {@link PluginRegistry#scorer}.
     *
     * @param <A> the arguments' type
     * @return this builder
     * @throws IllegalArgumentException as {@link PluginRegistry#scorer} does
     */
    public <A extends Record> Builder scorer(
        String name, Class<A> argsType, Function<? super A, ? extends Scorer> factory) {
      plugins = plugins.scorer(name, argsType, factory);
      return this;
    }

    /** @return the server, with the plugins registered so far; the builder may go on registering */
    public KubeschedServer build() {
      return new KubeschedServer(plugins);
    }
  }
}
