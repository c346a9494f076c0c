package io.kubesched.informer.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef.Source;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.Resources;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link PodGroupSources} against fabric8's mock API server: discovery, the watched objects, the listener. */
class PodGroupSourcesTest {

  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final Duration WAIT = Duration.ofSeconds(10);

  private record Change(PodGroupRef ref, @Nullable PodGroup before, @Nullable PodGroup after) {}

  private KubernetesMockServer server;
  private KubernetesClient client;
  private final BlockingQueue<Change> changes = new LinkedBlockingQueue<>();
  private final List<PodGroupSources> opened = new ArrayList<>();

  @BeforeEach
  void startServer() {
    server = MockServers.crud();
    client = server.createClient(new JdkHttpClientFactory());
  }

  @AfterEach
  void stopServer() {
    opened.forEach(PodGroupSources::close);
    client.close();
    MockServers.destroy(server);
  }

  private static CustomResourceDefinitionContext podGroups(Source source) {
    var parts = source.apiVersion().split("/");
    return new CustomResourceDefinitionContext.Builder()
        .withGroup(parts[0])
        .withVersion(parts[1])
        .withKind("PodGroup")
        .withPlural("podgroups")
        .withScope("Namespaced")
        .build();
  }

  private void serve(Source source) {
    server.expectCustomResource(podGroups(source));
  }

  private PodGroupSources sources(Set<Source> wanted) {
    var sources = new PodGroupSources(client, wanted, (ref, before, after) -> changes.add(new Change(ref, before, after)));
    opened.add(sources);
    return sources;
  }

  private PodGroupSources started(Set<Source> wanted) throws InterruptedException {
    var sources = sources(wanted);
    sources.start();
    await(sources::hasSynced);
    return sources;
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    var deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "timed out");
      Thread.sleep(10);
    }
  }

  private Change nextChange() throws InterruptedException {
    var change = changes.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertNotNull(change, "no change heard");
    return change;
  }

  private GenericKubernetesResource create(Source source, String yaml) {
    var object = YAML.unmarshal(yaml, GenericKubernetesResource.class);
    return client
        .genericKubernetesResources(podGroups(source))
        .inNamespace(object.getMetadata().getNamespace())
        .resource(object)
        .create();
  }

  private GenericKubernetesResource update(Source source, GenericKubernetesResource object) {
    return client
        .genericKubernetesResources(podGroups(source))
        .inNamespace(object.getMetadata().getNamespace())
        .resource(object)
        .update();
  }

  private void delete(Source source, String namespace, String name) {
    client
        .genericKubernetesResources(podGroups(source))
        .inNamespace(namespace)
        .withName(name)
        .delete();
  }

  private static String gang(String name, String minCount) {
    return """
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PodGroup
        metadata: {namespace: training, name: %s}
        spec:
          schedulingPolicy:
            gang: {minCount: %s}
          priority: 100
        """
        .formatted(name, minCount);
  }

  private static String coscheduling(String name, int minMember) {
    return """
        apiVersion: scheduling.x-k8s.io/v1alpha1
        kind: PodGroup
        metadata: {namespace: training, name: %s}
        spec: {minMember: %d, scheduleTimeoutSeconds: 60, minResources: {cpu: "4"}}
        """
        .formatted(name, minMember);
  }

  /** The paths the client requested so far, decoded. */
  private List<String> requests() throws InterruptedException {
    var paths = new ArrayList<String>();
    for (var request = server.takeRequest(100, TimeUnit.MILLISECONDS);
        request != null;
        request = server.takeRequest(100, TimeUnit.MILLISECONDS)) {
      paths.add(URLDecoder.decode(request.getPath(), StandardCharsets.UTF_8));
    }
    return paths;
  }

  @Test
  void groups_that_exist_before_the_start_are_listed_from_both_served_sources() throws Exception {
    serve(Source.WORKLOAD_API);
    serve(Source.COSCHEDULING);
    create(Source.WORKLOAD_API, gang("job-a", "3"));
    create(Source.COSCHEDULING, coscheduling("job-b", 2));

    var sources = started(EnumSet.allOf(Source.class));

    assertTrue(sources.serves(Source.WORKLOAD_API));
    assertTrue(sources.serves(Source.COSCHEDULING));
    var a = sources.group(new PodGroupRef(Source.WORKLOAD_API, "training", "job-a"));
    assertNotNull(a);
    assertEquals(3, a.minMember());
    assertEquals(100, a.priority());
    var b = sources.group(new PodGroupRef(Source.COSCHEDULING, "training", "job-b"));
    assertNotNull(b);
    assertEquals(2, b.minMember());
    assertEquals(Duration.ofSeconds(60), b.timeout());
    assertEquals(Resources.of(4000, 0), b.minResources());
    assertEquals(2, sources.size());
    // One group name in two sources is two groups.
    assertNull(sources.group(new PodGroupRef(Source.COSCHEDULING, "training", "job-a")));
  }

  @Test
  void add_update_and_delete_reach_the_listener_with_the_group_before_and_after() throws Exception {
    serve(Source.WORKLOAD_API);
    var sources = started(EnumSet.of(Source.WORKLOAD_API));
    var ref = new PodGroupRef(Source.WORKLOAD_API, "training", "job-a");

    var created = create(Source.WORKLOAD_API, gang("job-a", "3"));
    var added = nextChange();
    assertEquals(ref, added.ref());
    assertNull(added.before());
    assertEquals(3, added.after().minMember());
    assertEquals(added.after(), sources.group(ref));

    var changed = YAML.unmarshal(YAML.asYaml(created), GenericKubernetesResource.class);
    changed.<java.util.Map<String, Object>>get("spec", "schedulingPolicy", "gang").put("minCount", 2);
    update(Source.WORKLOAD_API, changed);
    var updated = nextChange();
    assertEquals(added.after(), updated.before());
    assertEquals(2, updated.after().minMember());
    assertEquals(2, sources.group(ref).minMember());

    delete(Source.WORKLOAD_API, "training", "job-a");
    var deleted = nextChange();
    assertEquals(updated.after(), deleted.before());
    assertNull(deleted.after());
    assertNull(sources.group(ref));
    assertEquals(0, sources.size());
  }

  @Test
  void a_malformed_object_is_kept_as_its_message_until_it_can_be_read() throws Exception {
    serve(Source.WORKLOAD_API);
    var sources = started(EnumSet.of(Source.WORKLOAD_API));
    var ref = new PodGroupRef(Source.WORKLOAD_API, "training", "job-a");

    var created = create(Source.WORKLOAD_API, gang("job-a", "\"three\""));
    var added = nextChange();
    assertNull(added.before());
    assertNull(added.after());
    assertNull(sources.group(ref));
    assertEquals(
        "scheduling.k8s.io/v1beta1 PodGroup training/job-a: spec.schedulingPolicy.gang.minCount 'three' is not an integer",
        sources.invalid(ref));
    assertEquals(0, sources.size());

    var fixed = YAML.unmarshal(YAML.asYaml(created), GenericKubernetesResource.class);
    fixed.<java.util.Map<String, Object>>get("spec", "schedulingPolicy", "gang").put("minCount", 3);
    update(Source.WORKLOAD_API, fixed);
    var readable = nextChange();
    assertNull(readable.before());
    assertEquals(3, readable.after().minMember());
    assertNull(sources.invalid(ref));
    assertEquals(readable.after(), sources.group(ref));

    delete(Source.WORKLOAD_API, "training", "job-a");
    assertNull(nextChange().after());
    assertNull(sources.invalid(ref));
  }

  @Test
  void a_source_the_server_does_not_serve_is_warned_about_once_and_never_watched() throws Exception {
    serve(Source.COSCHEDULING);
    var err = System.err;
    var captured = new ByteArrayOutputStream();
    PodGroupSources sources;
    try {
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      sources = started(EnumSet.allOf(Source.class));
      create(Source.COSCHEDULING, coscheduling("job-b", 2));
      nextChange();
    } finally {
      System.setErr(err);
    }

    assertFalse(sources.serves(Source.WORKLOAD_API));
    assertTrue(sources.serves(Source.COSCHEDULING));
    var warnings =
        captured.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("are not watched")).toList();
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("WARN"), warnings.get(0));
    assertTrue(warnings.get(0).contains("scheduling.k8s.io/v1beta1 podgroups"), warnings.get(0));
    var paths = requests();
    assertEquals(1, paths.stream().filter(p -> p.equals("/apis/scheduling.k8s.io/v1beta1")).count(), paths.toString());
    assertTrue(paths.stream().noneMatch(p -> p.startsWith("/apis/scheduling.k8s.io/v1beta1/")), paths.toString());
    assertTrue(paths.stream().anyMatch(p -> p.startsWith("/apis/scheduling.x-k8s.io/v1alpha1/podgroups")), paths.toString());
  }

  @Test
  void a_source_not_wanted_is_neither_discovered_nor_watched() throws Exception {
    serve(Source.WORKLOAD_API);
    serve(Source.COSCHEDULING);

    var sources = started(EnumSet.of(Source.COSCHEDULING));

    assertFalse(sources.serves(Source.WORKLOAD_API));
    assertTrue(requests().stream().noneMatch(p -> p.startsWith("/apis/scheduling.k8s.io")));
  }

  @Test
  void with_no_source_wanted_nothing_is_asked_and_it_is_synced_at_once() throws Exception {
    var sources = sources(Set.of());
    sources.start();

    assertTrue(sources.hasSynced());
    assertEquals(List.of(), requests());
  }
}
