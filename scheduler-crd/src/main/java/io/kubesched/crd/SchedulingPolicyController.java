package io.kubesched.crd;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.SchedulerException;
import io.kubesched.fabric8.Fabric8Compat;
import io.kubesched.fabric8.SiblingClients;
import io.kubesched.facade.Controller;
import io.kubesched.policy.Policy;
import io.kubesched.policy.config.PluginRegistry;
import io.kubesched.policy.config.SchedulerConfiguration;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@link SchedulingPolicy} custom resources to a running {@link Controller}: each one replaces the policy of
 * the profile its {@code spec.schedulerName} names, for the next pod of that profile, without a restart.
 *
 * <ul>
 *   <li>A valid policy: {@link Controller#replacePolicy} with the profile its spec parses to ({@link
 *       SchedulerConfiguration#parseProfile}, kube-scheduler's defaulting applied, the plugins of the {@link
 *       PluginRegistry} the controller was made with known besides kube's; without its own {@code
 *       percentageOfNodesToScore} it keeps the configured profile's), then {@code Accepted=True}
 *       (reason {@code Accepted}) and a Normal {@code PolicyAccepted} event.
 *   <li>An invalid one (the spec does not parse, or the controller refuses it): {@code Accepted=False} with reason
 *       {@code Invalid} and the parser's message (which names the field and the value), a Warning {@code
 *       PolicyRejected} event; the profile keeps its last good policy.
 *   <li>Two naming one profile: the older (creation time, then name) owns it; the other is {@code Accepted=False}
 *       with reason {@code Conflict}. A name that is none of {@code profiles}: reason {@code UnknownScheduler}.
 *   <li>Deleting the owner: the profile goes back to its configured policy (from {@code profiles}), or to the
 *       next oldest policy that names it.
 * </ul>
 * Every status write sets {@code status.observedGeneration} and the condition's {@code observedGeneration} to the
 * object's {@code metadata.generation}; the condition's {@code lastTransitionTime} changes only with its status.
 *
 * <p>With leader election, every replica applies the policies (a follower is ready when it takes over), but only
 * the leader ({@link Controller#isLeader()}) writes status and events; the informer's periodic resync lets a new
 * leader write what its predecessor had not.
 *
 * <p>Threads: the fabric8 informer's handler thread only marks that the policies must be looked at again; one
 * worker thread, {@code kubesched-schedulingpolicy}, reads the informer's cache, parses, calls {@link
 * Controller#replacePolicy} and writes status and events, so no request ever blocks the informer. A status write
 * that fails is tried again after a delay. {@link #start()} and {@link #close()} may be called from any thread.
 *
 * <p>The scheduler's identity needs, beyond the scheduler's own RBAC: {@code get}, {@code list}, {@code watch} on
 * {@code schedulingpolicies.kubesched.io}, {@code patch} on {@code schedulingpolicies/status}, and {@code create}
 * on {@code events.k8s.io} events in namespace {@code default}.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class SchedulingPolicyController implements AutoCloseable {

  /** How long {@link #start()} waits for the first list. */
  static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);

  private static final Logger LOG = LoggerFactory.getLogger(SchedulingPolicyController.class);
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX").withZone(ZoneOffset.UTC);

  /** Timing and identity; tests shorten the delays. */
  record Settings(Duration resync, Duration retry, Clock clock, String hostname) {
    static Settings defaults() {
      return new Settings(Duration.ofSeconds(30), Duration.ofSeconds(5), Clock.systemUTC(), SchedulingPolicyController.hostname());
    }
  }

  /** What was last written for one object: its generation and the verdict. */
  private record Written(long generation, PolicyBook.Verdict verdict) {}

  private final KubernetesClient client;
  private final Controller controller;
  private final Settings settings;
  /** The configured profiles: what a policy without its own percentage of nodes to score takes it from. */
  private final Map<String, FinderFunc> profiles;
  /** The plugins of one's own a policy may enable. */
  private final PluginRegistry plugins;
  private final PolicyBook book;
  private final PolicyEvents events;
  private final ScheduledExecutorService worker;
  private final AtomicBoolean pending = new AtomicBoolean();
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  // Worker thread only.
  private final Map<String, Written> written = new LinkedHashMap<>();
  private final Map<String, Written> logged = new LinkedHashMap<>();
  private volatile @Nullable SharedIndexInformer<SchedulingPolicy> informer;

  /**
   * A controller, not started, for the profiles of {@code controller}.
   *
   * @param client the client to watch and write with ({@code io.kubesched.facade.Client#kubernetesClient()})
   * @param controller the scheduling controller whose profiles the policies replace
   * @param profiles the configured profiles: each scheduler name and the policy it falls back to when no
   *     SchedulingPolicy sets it (the one {@code controller} was created with)
   * @throws ConfigurationException if {@code profiles} is empty
   */
  public SchedulingPolicyController(KubernetesClient client, Controller controller, Map<String, FinderFunc> profiles) {
    this(client, controller, profiles, PluginRegistry.empty(), Settings.defaults());
  }

  /**
   * A controller, not started, for the profiles of {@code controller}, whose policies may enable the plugins of
   * {@code plugins} besides kube's, as the configuration file's profiles may.
   *
   * @param client the client to watch and write with ({@code io.kubesched.facade.Client#kubernetesClient()})
   * @param controller the scheduling controller whose profiles the policies replace
   * @param profiles the configured profiles, as {@link #SchedulingPolicyController(KubernetesClient, Controller,
   *     Map)} takes them
   * @param plugins the plugins of one's own a policy may name
   * @throws ConfigurationException if {@code profiles} is empty
   */
  public SchedulingPolicyController(
      KubernetesClient client, Controller controller, Map<String, FinderFunc> profiles, PluginRegistry plugins) {
    this(client, controller, profiles, plugins, Settings.defaults());
  }

  SchedulingPolicyController(
      KubernetesClient client, Controller controller, Map<String, FinderFunc> profiles, Settings settings) {
    this(client, controller, profiles, PluginRegistry.empty(), settings);
  }

  SchedulingPolicyController(
      KubernetesClient client,
      Controller controller,
      Map<String, FinderFunc> profiles,
      PluginRegistry plugins,
      Settings settings) {
    this.plugins = Objects.requireNonNull(plugins, "plugins");
    if (profiles.isEmpty()) {
      throw new ConfigurationException("SchedulingPolicyController needs at least one profile; it was given none");
    }
    this.client = Objects.requireNonNull(client, "client");
    this.controller = Objects.requireNonNull(controller, "controller");
    this.settings = settings;
    this.profiles = Map.copyOf(profiles);
    this.book = new PolicyBook(profiles, this::parse, controller::replacePolicy);
    this.events = new PolicyEvents(client, settings.hostname(), settings.clock());
    this.worker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              var thread = new Thread(r, "kubesched-schedulingpolicy");
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * Lists the SchedulingPolicies, applies them, then follows their changes until {@link #close()}. Returns once
   * the policies that exist are applied (their status is written by the worker soon after).
   *
   * @throws IllegalStateException if already started or closed
   * @throws ConfigurationException if the API server does not serve SchedulingPolicies (the CRD is not
   *     installed) or does not let this identity list them; the controller is closed then
   * @throws SchedulerException if the first list does not complete in time; the controller is closed then
   */
  public void start() {
    if (closed.get() || !started.compareAndSet(false, true)) {
      throw new IllegalStateException("SchedulingPolicyController can be started once, and not after close()");
    }
    var informer = watching(client).resources(SchedulingPolicy.class).runnableInformer(settings.resync().toMillis());
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(SchedulingPolicy policy) {
            requestReconcile();
          }

          @Override
          public void onUpdate(SchedulingPolicy before, SchedulingPolicy policy) {
            requestReconcile();
          }

          @Override
          public void onDelete(SchedulingPolicy policy, boolean finalStateUnknown) {
            requestReconcile();
          }
        });
    this.informer = informer;
    try {
      informer.start().toCompletableFuture().get(SYNC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      // The first pass sees every policy at once, so the older of two always wins, even at start.
      worker.submit(this::reconcile).get(SYNC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new SchedulerException("interrupted while listing SchedulingPolicies", e);
    } catch (ExecutionException e) {
      close();
      throw startFailure(e.getCause());
    } catch (TimeoutException e) {
      close();
      throw new SchedulerException("listing SchedulingPolicies took longer than " + SYNC_TIMEOUT.toSeconds() + " s", e);
    }
    LOG.info("Watching SchedulingPolicies for the profiles {}", book.profiles());
  }

  /**
   * A client to watch SchedulingPolicies with: {@code client}'s HTTP client and configuration, decoding with a
   * serialization that knows only SchedulingPolicy and Status. {@code client}'s own serialization, fabric8's default,
   * finds the class of a watch event's object by loading every {@code KubernetesResource} class its model jars list
   * as services, at the first event: about 500 classes (gateway API, admission registration, …) that nothing else
   * in a scheduler loads. ServerIT's leader, which watches SchedulingPolicies change, loaded 7 905 classes before and
   * 7 411 with this client. The scheduling loop's client registers its kinds the same way.
   *
   * <p>Not closed: closing it would close {@code client}'s HTTP client. The informer is closed with this
   * controller; the idle threads of the client's pool are daemons that end on their own.
   */
  private static KubernetesClient watching(KubernetesClient client) {
    var serialization = Fabric8Compat.get().leanSerialization(List.of(Status.class, SchedulingPolicy.class));
    return SiblingClients.of(client, serialization);
  }

  /** Stops watching and stops the worker. Policies in force stay in force. Idempotent; callable from any thread. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    var informer = this.informer;
    if (informer != null) {
      informer.close();
    }
    worker.shutdownNow();
    try {
      if (!worker.awaitTermination(10, TimeUnit.SECONDS)) {
        LOG.warn("The SchedulingPolicy worker did not stop within 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static RuntimeException startFailure(Throwable cause) {
    if (cause instanceof KubernetesClientException e && e.getCode() == 404) {
      return new ConfigurationException("The API server does not serve " + SchedulingPolicy.CRD_NAME
          + ": install the CRD (kubectl apply -f crds/schedulingpolicies.kubesched.io-v1.yml), or run without "
          + "SchedulingPolicies", e);
    }
    if (cause instanceof KubernetesClientException e && e.getCode() == 403) {
      return new ConfigurationException("This identity may not list " + SchedulingPolicy.CRD_NAME
          + ": its ClusterRole needs get, list and watch on schedulingpolicies and patch on "
          + "schedulingpolicies/status (group kubesched.io): " + e.getMessage(), e);
    }
    return new SchedulerException("listing SchedulingPolicies failed: " + cause, cause);
  }

  /** From any thread: makes the worker look at every policy again, once however often it is asked. */
  private void requestReconcile() {
    if (closed.get() || !pending.compareAndSet(false, true)) {
      return;
    }
    try {
      worker.execute(this::reconcile);
    } catch (RejectedExecutionException e) {
      pending.set(false); // closed meanwhile
    }
  }

  /** Worker thread: applies every policy in the informer's cache and writes the statuses that changed. */
  private void reconcile() {
    pending.set(false);
    var informer = this.informer;
    if (closed.get() || informer == null || !informer.hasSynced()) {
      return; // start() runs the first pass once the list is complete
    }
    try {
      var policies = informer.getStore().list();
      var verdicts = book.reconcile(policies);
      var uids = new HashSet<String>();
      boolean retry = false;
      for (var policy : policies) {
        var verdict = verdicts.get(policy.getMetadata().getName());
        if (verdict == null) {
          continue;
        }
        uids.add(uid(policy));
        log(policy, verdict);
        retry |= !report(policy, verdict);
      }
      written.keySet().retainAll(uids);
      logged.keySet().retainAll(uids);
      if (retry) {
        worker.schedule(this::requestReconcile, settings.retry().toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (RejectedExecutionException e) {
      // closed meanwhile
    } catch (RuntimeException e) {
      LOG.warn("Applying SchedulingPolicies failed; trying again in {}", settings.retry(), e);
      try {
        worker.schedule(this::requestReconcile, settings.retry().toMillis(), TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException closedMeanwhile) {
        // nothing left to do
      }
    }
  }

  /** Logs a verdict at INFO once per generation and verdict. */
  private void log(SchedulingPolicy policy, PolicyBook.Verdict verdict) {
    var now = new Written(generation(policy), verdict);
    if (now.equals(logged.put(uid(policy), now))) {
      return;
    }
    var name = policy.getMetadata().getName();
    if (verdict.accepted()) {
      LOG.info("SchedulingPolicy {} generation {} accepted: {}", name, now.generation(), verdict.message());
    } else {
      LOG.info("SchedulingPolicy {} generation {} rejected ({}): {}{}", name, now.generation(), verdict.reason(),
          verdict.message(), verdict.inForce().isEmpty() ? "" : "; " + verdict.inForce());
    }
  }

  /**
   * Writes the verdict into the policy's status and an event, if the status does not say it yet and this
   * replica leads.
   *
   * @return false if a write failed (to be tried again), else true
   */
  private boolean report(SchedulingPolicy policy, PolicyBook.Verdict verdict) {
    long generation = generation(policy);
    var now = new Written(generation, verdict);
    if (now.equals(written.get(uid(policy))) || says(policy, verdict, generation) || !controller.isLeader()) {
      return true;
    }
    var status = verdict.accepted() ? "True" : "False";
    var before = policy.getStatus() == null ? null : policy.getStatus().accepted().orElse(null);
    var transition = before != null && status.equals(before.getStatus()) && before.getLastTransitionTime() != null
        ? before.getLastTransitionTime()
        : SECONDS.format(settings.clock().instant());
    var condition =
        new ConditionBuilder()
            .withType(SchedulingPolicyStatus.ACCEPTED)
            .withStatus(status)
            .withReason(verdict.reason())
            .withMessage(verdict.message())
            .withObservedGeneration(generation)
            .withLastTransitionTime(transition)
            .build();
    var conditions = new ArrayList<Condition>();
    conditions.add(condition);
    if (policy.getStatus() != null) {
      policy.getStatus().conditions().stream()
          .filter(c -> !SchedulingPolicyStatus.ACCEPTED.equals(c.getType()))
          .forEach(conditions::add);
    }
    // A JSON patch replaces the whole status (a merge patch would do too on the API server, but fabric8's mock
    // server merges lists), and only while the object is still at the generation judged: a spec edited meanwhile
    // fails the test (422) and the informer brings the new generation.
    var patch = new ArrayList<Map<String, Object>>();
    if (policy.getMetadata().getGeneration() != null) {
      patch.add(Map.of("op", "test", "path", "/metadata/generation", "value", generation));
    }
    patch.add(Map.of("op", "add", "path", "/status", "value", new SchedulingPolicyStatus(generation, conditions)));
    try {
      client
          .resources(SchedulingPolicy.class)
          .resource(policy)
          .subresource("status")
          .patch(PatchContext.of(PatchType.JSON), client.getKubernetesSerialization().asJson(patch));
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return true; // deleted meanwhile: the informer will tell
      }
      LOG.warn("Writing the status of SchedulingPolicy {} failed (tried again in {}): {}",
          policy.getMetadata().getName(), settings.retry(), e.getMessage());
      return false;
    }
    written.put(uid(policy), now);
    var note = verdict.accepted() || verdict.inForce().isEmpty()
        ? verdict.message()
        : verdict.message() + "; " + verdict.inForce();
    events.record(policy, verdict.accepted(), note);
    return true;
  }

  /** @return whether the policy's status already says {@code verdict} for {@code generation} */
  private static boolean says(SchedulingPolicy policy, PolicyBook.Verdict verdict, long generation) {
    var status = policy.getStatus();
    if (status == null || status.observedGeneration() == null || status.observedGeneration() != generation) {
      return false;
    }
    return status.accepted()
        .filter(c -> (verdict.accepted() ? "True" : "False").equals(c.getStatus())
            && verdict.reason().equals(c.getReason())
            && verdict.message().equals(c.getMessage())
            && Long.valueOf(generation).equals(c.getObservedGeneration()))
        .isPresent();
  }

  /** Parses a spec as a KubeSchedulerConfiguration profile; never throws. */
  private PolicyBook.Parsed parse(SchedulingPolicy policy) {
    var source = "SchedulingPolicy " + policy.getMetadata().getName();
    var spec = policy.getSpec();
    if (spec == null) {
      return new PolicyBook.Parsed.Invalid(null, source + ": spec: required: a SchedulingPolicy sets one profile "
          + "(schedulerName, plugins, pluginConfig, percentageOfNodesToScore)");
    }
    try {
      var json = client.getKubernetesSerialization().asJson(spec);
      var profile = SchedulerConfiguration.parseProfile(json, source, "spec", configuredPercentage(spec), plugins);
      return new PolicyBook.Parsed.Valid(profile.schedulerName(), profile.policy());
    } catch (ConfigurationException e) {
      return new PolicyBook.Parsed.Invalid(spec.schedulerName(), e.getMessage());
    } catch (RuntimeException e) {
      LOG.warn("Parsing {} failed unexpectedly", source, e);
      return new PolicyBook.Parsed.Invalid(spec.schedulerName(), source + ": spec: cannot be read: " + e);
    }
  }

  /**
   * What a spec without {@code percentageOfNodesToScore} gets: the configured profile's, as a file's profile
   * takes the file's; kube's adaptive default (0) when that profile is not a {@link Policy}.
   */
  private int configuredPercentage(SchedulingPolicySpec spec) {
    var name = spec.schedulerName();
    return name != null && profiles.get(name) instanceof Policy configured
        ? configured.percentageOfNodesToScore()
        : 0;
  }

  private static String uid(SchedulingPolicy policy) {
    var meta = policy.getMetadata();
    return Objects.requireNonNullElse(meta.getUid(), meta.getName());
  }

  private static long generation(SchedulingPolicy policy) {
    var generation = policy.getMetadata().getGeneration();
    return generation == null ? 0 : generation;
  }

  private static String hostname() {
    var fromEnvironment = System.getenv("HOSTNAME");
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return fromEnvironment;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown";
    }
  }
}
