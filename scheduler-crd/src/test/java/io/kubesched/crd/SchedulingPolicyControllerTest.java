package io.kubesched.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.crd.SchedulingPolicySpec.Plugin;
import io.kubesched.crd.SchedulingPolicySpec.PluginConfig;
import io.kubesched.crd.SchedulingPolicySpec.PluginSet;
import io.kubesched.crd.SchedulingPolicySpec.Plugins;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.Policy;
import io.kubesched.policy.config.PluginRegistry;
import io.kubesched.policy.framework.Scorer;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The controller against fabric8's CRUD mock server, with the generated CRD installed there, the real profile
 * parser and a {@link FakeController}: what it hands the controller, and what it writes into status and events.
 */
class SchedulingPolicyControllerTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final FinderFunc FILE_ALPHA = (pod, nodes) -> Decision.unschedulable(Map.of());
  /** A configured profile that scores 40 % of the nodes. */
  private static final FinderFunc FILE_BETA = Policy.builder().percentageOfNodesToScore(40).build();

  private KubernetesMockServer server;
  private KubernetesClient client;
  private final FakeController fake = new FakeController(Set.of("alpha", "beta"));
  private final SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private SchedulingPolicyController policies;

  @BeforeEach
  void startServer() throws Exception {
    server = new KubernetesMockServer(
        new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
    server.init();
    client = server.createClient(new JdkHttpClientFactory());
    var crds = client.apiextensions().v1().customResourceDefinitions();
    try (var yaml = Files.newInputStream(GeneratedCrdTest.COMMITTED)) {
      crds.resource(crds.load(yaml).item()).create();
    }
    policies = new SchedulingPolicyController(client, fake, Map.of("alpha", FILE_ALPHA, "beta", FILE_BETA),
        new SchedulingPolicyController.Settings(Duration.ofSeconds(1), Duration.ofMillis(200), clock, "test-host"));
  }

  @AfterEach
  void stop() {
    policies.close();
    client.close();
    try {
      server.destroy();
    } catch (IllegalStateException slowToClose) {
      // The mock server waits 10 s for its connections to end; once, under CI load, it did not (the test's
      // assertions had passed). Its port is released with the JVM; a slow close is not what is tested here.
    }
  }

  /**
   * Polls {@code condition} every 20 ms until it holds, failing with {@code what} after {@code timeout}. (The
   * facade's test fixture has one, but its package is the facade module's own, which this module reads.)
   */
  private static void eventually(Duration timeout, String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out after " + timeout + " waiting until " + what);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted waiting until " + what);
      }
    }
  }

  private static SchedulingPolicySpec mostAllocated(String schedulerName) {
    return new SchedulingPolicySpec(
        schedulerName,
        null,
        null,
        List.of(new PluginConfig("NodeResourcesFit", Map.of("scoringStrategy", Map.of("type", "MostAllocated")))));
  }

  private static SchedulingPolicySpec unknownPlugin(String schedulerName) {
    return unknownPlugin(schedulerName, "NoSuchPlugin");
  }

  private static SchedulingPolicySpec unknownPlugin(String schedulerName, String plugin) {
    return new SchedulingPolicySpec(
        schedulerName, null, Plugins.DEFAULTS.withScore(new PluginSet(List.of(new Plugin(plugin, 2)), null)), null);
  }

  private SchedulingPolicy create(String name, SchedulingPolicySpec spec) {
    return client.resources(SchedulingPolicy.class).resource(SchedulingPolicy.of(name, spec)).create();
  }

  private void edit(String name, SchedulingPolicySpec spec) {
    client.resources(SchedulingPolicy.class).withName(name).edit(p -> {
      p.setSpec(spec);
      return p;
    });
  }

  private SchedulingPolicy get(String name) {
    return client.resources(SchedulingPolicy.class).withName(name).get();
  }

  private Optional<Condition> accepted(String name) {
    var policy = get(name);
    return policy == null || policy.getStatus() == null ? Optional.empty() : policy.getStatus().accepted();
  }

  private void awaitReason(String name, String reason) {
    try {
      eventually(WAIT, name + " has Accepted with reason " + reason,
          () -> accepted(name).map(c -> reason.equals(c.getReason())).orElse(false));
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; it is " + client.getKubernetesSerialization().asJson(get(name)), e);
    }
  }

  private List<Event> eventsAbout(String name) {
    return client.events().v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> e.getRegarding() != null && name.equals(e.getRegarding().getName()))
        .toList();
  }

  @Test
  void a_valid_policy_replaces_its_profile_and_is_accepted_with_its_generation() {
    create("pack", mostAllocated("alpha"));
    policies.start();

    assertEquals(1, fake.replaced.size(), "replacePolicy before start() returns: " + fake.replaced);
    assertEquals("alpha", fake.replaced.get(0).schedulerName());
    assertInstanceOf(Policy.class, fake.replaced.get(0).policy());
    awaitReason("pack", "Accepted");
    var policy = get("pack");
    var condition = policy.getStatus().accepted().orElseThrow();
    assertEquals("True", condition.getStatus());
    long generation = Optional.ofNullable(policy.getMetadata().getGeneration()).orElse(0L);
    assertEquals(generation, condition.getObservedGeneration());
    assertEquals(generation, policy.getStatus().observedGeneration());
    assertTrue(condition.getMessage().contains("scheduler alpha"), condition.getMessage());
    eventually(WAIT, "a PolicyAccepted event", () -> eventsAbout("pack").size() == 1);
    var event = eventsAbout("pack").get(0);
    assertEquals("PolicyAccepted", event.getReason());
    assertEquals("Normal", event.getType());
    assertEquals(PolicyEvents.CONTROLLER, event.getReportingController());
    assertEquals("SchedulingPolicy", event.getRegarding().getKind());
  }

  @Test
  void a_policy_without_its_own_percentage_of_nodes_to_score_keeps_the_configured_profiles() {
    create("pack-beta", mostAllocated("beta"));
    policies.start();

    var replaced = assertInstanceOf(Policy.class, fake.replaced.get(0).policy());
    assertEquals(40, replaced.percentageOfNodesToScore());

    edit("pack-beta", new SchedulingPolicySpec("beta", 70, null, null));
    eventually(WAIT, "the edit replaces the policy again", () -> fake.replaced.size() == 2);
    assertEquals(70, assertInstanceOf(Policy.class, fake.replaced.get(1).policy()).percentageOfNodesToScore());
  }

  @Test
  void a_policy_naming_an_unknown_plugin_is_invalid_naming_the_field_and_nothing_is_replaced() {
    policies.start();
    create("typo", unknownPlugin("alpha"));

    awaitReason("typo", "Invalid");
    var condition = accepted("typo").orElseThrow();
    assertEquals("False", condition.getStatus());
    assertTrue(condition.getMessage().contains("SchedulingPolicy typo"), condition.getMessage());
    assertTrue(condition.getMessage().contains("spec.plugins.score.enabled[0]"), condition.getMessage());
    assertTrue(condition.getMessage().contains("NoSuchPlugin"), condition.getMessage());
    assertTrue(fake.replaced.isEmpty(), "replaced: " + fake.replaced);
    eventually(WAIT, "a PolicyRejected event", () -> eventsAbout("typo").size() == 1);
    assertEquals("Warning", eventsAbout("typo").get(0).getType());
    assertEquals("PolicyRejected", eventsAbout("typo").get(0).getReason());
    assertTrue(eventsAbout("typo").get(0).getNote().contains("keeps its configured profile"),
        eventsAbout("typo").get(0).getNote());
  }

  /** The arguments of {@link #PREFER_LABEL}. */
  record PreferArgs(String label) {}

  /** A registered scorer: nodes with the label score 100. */
  private static final PluginRegistry PREFER_LABEL = PluginRegistry.empty().scorer("PreferLabel", PreferArgs.class,
      args -> new Scorer() {
        @Override
        public String name() {
          return "PreferLabel";
        }

        @Override
        public long score(PodInfo pod, NodeInfo node) {
          return node.labels().containsKey(args.label()) ? MAX_SCORE : 0;
        }
      });

  @Test
  void a_controller_made_with_a_plugin_registry_accepts_a_policy_enabling_a_registered_plugin_with_its_args() {
    policies.close();
    policies = new SchedulingPolicyController(client, fake, Map.of("alpha", FILE_ALPHA), PREFER_LABEL);
    policies.start();
    create("prefer", new SchedulingPolicySpec("alpha", null,
        Plugins.DEFAULTS.withScore(new PluginSet(List.of(new Plugin("PreferLabel", 4)), null)),
        List.of(new PluginConfig("PreferLabel", Map.of("label", "ssd")))));

    awaitReason("prefer", "Accepted");
    var policy = assertInstanceOf(Policy.class, fake.replaced.get(0).policy());
    var scorer = policy.scorers().get(policy.scorers().size() - 1);
    assertEquals("PreferLabel", scorer.scorer().name());
    assertEquals(4, scorer.weight());
    assertEquals(Scorer.MAX_SCORE, scorer.scorer().score(PodInfo.builder("ns", "p").build(),
        NodeInfo.builder("n").labels(Map.of("ssd", "")).build()));

    edit("prefer", new SchedulingPolicySpec("alpha", null,
        Plugins.DEFAULTS.withScore(new PluginSet(List.of(new Plugin("PreferLabel", 4)), null)),
        List.of(new PluginConfig("PreferLabel", Map.of("lable", "ssd")))));
    awaitReason("prefer", "Invalid");
    var message = accepted("prefer").orElseThrow().getMessage();
    assertTrue(message.contains("spec.pluginConfig[0].args.lable is not a known field of PreferLabel's arguments"),
        message);
  }

  @Test
  void without_a_registry_a_policy_naming_a_registered_plugin_is_invalid() {
    policies.start();
    create("prefer", new SchedulingPolicySpec("alpha", null,
        Plugins.DEFAULTS.withScore(new PluginSet(List.of(new Plugin("PreferLabel", 4)), null)), null));
    awaitReason("prefer", "Invalid");
    var message = accepted("prefer").orElseThrow().getMessage();
    assertTrue(message.contains("\"PreferLabel\" is not a plugin of kube-scheduler 1.37"), message);
  }

  @Test
  void an_invalid_edit_keeps_the_last_good_policy_and_is_judged_at_its_generation() {
    policies.start();
    create("pack", mostAllocated("alpha"));
    awaitReason("pack", "Accepted");
    var good = fake.replaced.get(fake.replaced.size() - 1).policy();

    edit("pack", unknownPlugin("alpha"));

    awaitReason("pack", "Invalid");
    assertEquals(1, fake.replaced.size());
    assertSame(good, fake.replaced.get(0).policy());
    var policy = get("pack");
    long generation = Optional.ofNullable(policy.getMetadata().getGeneration()).orElse(0L);
    assertEquals(generation, policy.getStatus().observedGeneration());
    assertEquals(generation, policy.getStatus().accepted().orElseThrow().getObservedGeneration());
  }

  @Test
  void the_transition_time_changes_with_the_status_only() {
    policies.start();
    create("typo", unknownPlugin("alpha"));
    awaitReason("typo", "Invalid");
    assertEquals("2026-01-01T00:00:00Z", accepted("typo").orElseThrow().getLastTransitionTime());

    clock.now = Instant.parse("2026-01-01T01:00:00Z");
    edit("typo", unknownPlugin("alpha", "OtherPlugin"));
    eventually(WAIT, "the edit is judged", () -> accepted("typo")
        .map(c -> c.getObservedGeneration() == get("typo").getMetadata().getGeneration()
            && c.getMessage().contains("OtherPlugin")
            && c.getObservedGeneration() > 1)
        .orElse(false));
    assertEquals("2026-01-01T00:00:00Z", accepted("typo").orElseThrow().getLastTransitionTime(), "still False");

    clock.now = Instant.parse("2026-01-01T02:00:00Z");
    edit("typo", mostAllocated("alpha"));
    awaitReason("typo", "Accepted");
    assertEquals("2026-01-01T02:00:00Z", accepted("typo").orElseThrow().getLastTransitionTime(), "now True");
  }

  @Test
  void of_two_policies_for_one_profile_the_older_wins_and_the_other_is_a_conflict() {
    create("first", mostAllocated("alpha"));
    create("second", mostAllocated("alpha"));
    policies.start();

    awaitReason("first", "Accepted");
    awaitReason("second", "Conflict");
    assertEquals(1, fake.replaced.size(), "only the older was applied: " + fake.replaced);
    assertTrue(accepted("second").orElseThrow().getMessage().contains("SchedulingPolicy first"));
  }

  @Test
  void a_policy_for_a_name_that_is_no_profile_is_an_unknown_scheduler() {
    policies.start();
    create("elsewhere", mostAllocated("gamma"));

    awaitReason("elsewhere", "UnknownScheduler");
    assertTrue(accepted("elsewhere").orElseThrow().getMessage().contains("alpha, beta"));
    assertTrue(fake.replaced.isEmpty());
  }

  @Test
  void a_policy_the_controller_refuses_is_invalid_with_the_controllers_message() {
    fake.refusing.add("alpha");
    policies.start();
    create("pack", mostAllocated("alpha"));

    awaitReason("pack", "Invalid");
    assertTrue(accepted("pack").orElseThrow().getMessage().contains("does not watch"));
    assertTrue(fake.replaced.isEmpty());
  }

  @Test
  void deleting_the_policy_gives_the_profile_its_configured_policy_back() {
    policies.start();
    create("pack", mostAllocated("alpha"));
    awaitReason("pack", "Accepted");

    client.resources(SchedulingPolicy.class).withName("pack").delete();

    eventually(WAIT, "alpha is back to its file policy",
        () -> fake.replaced.size() == 2 && fake.replaced.get(1).policy() == FILE_ALPHA);
    assertEquals("alpha", fake.replaced.get(1).schedulerName());
  }

  @Test
  void a_follower_applies_policies_but_writes_no_status_or_event() throws Exception {
    fake.leader = false;
    create("pack", mostAllocated("alpha"));
    policies.start();

    assertEquals(1, fake.replaced.size());
    Thread.sleep(1500); // past a resync
    assertTrue(accepted("pack").isEmpty(), "status written by a follower");
    assertTrue(eventsAbout("pack").isEmpty());

    fake.leader = true; // took over: the next resync writes it
    awaitReason("pack", "Accepted");
  }

  @Test
  void start_twice_is_refused_and_close_is_idempotent() {
    policies.start();
    assertThrows(IllegalStateException.class, policies::start);
    policies.close();
    policies.close();
    assertThrows(IllegalStateException.class, policies::start);
  }

  @Test
  void no_profile_is_a_configuration_error() {
    assertThrows(io.kubesched.api.ConfigurationException.class,
        () -> new SchedulingPolicyController(client, fake, Map.of()));
  }

  /** A clock that stands still until the test moves it. */
  private static final class SettableClock extends Clock {
    volatile Instant now;

    SettableClock(Instant now) {
      this.now = now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
