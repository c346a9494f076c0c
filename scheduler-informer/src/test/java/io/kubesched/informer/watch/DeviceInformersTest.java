package io.kubesched.informer.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.DynamicResources;
import io.kubesched.engine.ClusterEvent;
import io.kubesched.engine.DeviceCache;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dynamic resource allocation informers of {@link ClusterDataInformers}: what they watch, what they feed into
 * the {@link DeviceCache}, what they report. (fabric8's mock API server; what the real one serves is checked by the
 * e2e suite.)
 */
class DeviceInformersTest {

  private static final Duration SYNC = Duration.ofSeconds(30);
  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final Map<String, ClusterData> PATHS =
      Map.of(
          "/apis/resource.k8s.io/v1/resourceclaims?", ClusterData.RESOURCE_CLAIMS,
          "/apis/resource.k8s.io/v1/resourceslices?", ClusterData.RESOURCE_SLICES,
          "/apis/resource.k8s.io/v1/deviceclasses?", ClusterData.DEVICE_CLASSES,
          "/apis/resource.k8s.io/v1/devicetaintrules?", ClusterData.DEVICE_TAINT_RULES);
  private static final Set<ClusterData> ALL =
      EnumSet.of(
          ClusterData.RESOURCE_CLAIMS, ClusterData.RESOURCE_SLICES, ClusterData.DEVICE_CLASSES,
          ClusterData.DEVICE_TAINT_RULES);

  private KubernetesMockServer server;
  private KubernetesClient client;
  private final List<String> heard = new CopyOnWriteArrayList<>();
  private final List<String> claimEvents = new CopyOnWriteArrayList<>();
  private final DeviceCache devices = new DeviceCache();

  @BeforeEach
  void startServer() {
    server = MockServers.crud();
    client = server.createClient(new JdkHttpClientFactory());
  }

  @AfterEach
  void stopServer() {
    client.close();
    MockServers.destroy(server);
  }

  private ClusterDataInformers informers(Set<ClusterData> reads) {
    return new ClusterDataInformers(
        client,
        reads,
        new ClusterDataInformers.DeviceEvents() {
          @Override
          public void claimChanged(
              ClusterEvent event, String namespace, String name, @Nullable String ownerUid, boolean freesDevices) {
            heard.add(event.label());
            claimEvents.add(event.label() + " " + namespace + "/" + name + (freesDevices ? " frees devices" : ""));
          }

          @Override
          public void supplyChanged(ClusterEvent event) {
            heard.add(event.label());
          }
        },
        devices);
  }

  private Set<ClusterData> requested() throws InterruptedException {
    var found = EnumSet.noneOf(ClusterData.class);
    for (var request = server.takeRequest(1, TimeUnit.SECONDS);
        request != null;
        request = server.takeRequest(100, TimeUnit.MILLISECONDS)) {
      var path = URLDecoder.decode(request.getPath(), StandardCharsets.UTF_8);
      PATHS.forEach((prefix, data) -> {
        if (path.startsWith(prefix)) {
          found.add(data);
        }
      });
    }
    return found;
  }

  @Test
  void each_kind_is_watched_only_where_it_is_read() throws Exception {
    try (var informers = informers(Set.of(ClusterData.RESOURCE_CLAIMS, ClusterData.DEVICE_TAINT_RULES))) {
      informers.start().await(System.nanoTime() + SYNC.toNanos());
    }
    assertEquals(EnumSet.of(ClusterData.RESOURCE_CLAIMS, ClusterData.DEVICE_TAINT_RULES), requested());
  }

  @Test
  void a_policy_that_reads_no_dynamic_resources_gets_none() throws Exception {
    client.resources(DeviceClass.class).resource(deviceClass("gpu")).create();
    try (var informers = informers(Set.of(ClusterData.NAMESPACES))) {
      informers.start().await(System.nanoTime() + SYNC.toNanos());

      assertSame(DynamicResources.empty(), informers.snapshot(List.of()).dynamicResources());
    }
  }

  @Test
  void objects_reach_the_snapshot_changes_are_reported_and_a_restart_keeps_the_assumptions() throws Exception {
    client.resources(DeviceClass.class).resource(deviceClass("gpu")).create();
    client.resources(ResourceSlice.class).resource(slice("s1", "g0")).create();
    client.resources(ResourceClaim.class).inNamespace("ns").resource(claim("c1")).create();
    client.genericKubernetesResources(ClusterDataInformers.DEVICE_TAINT_RULES).resource(rule("r1")).create();
    try (var informers = informers(ALL)) {
      informers.start().await(System.nanoTime() + SYNC.toNanos());

      var read = informers.snapshot(List.of()).dynamicResources();
      assertTrue(read.deviceClass("gpu").isPresent());
      assertEquals("g0", read.slices().get(0).devices().get(0).name());
      assertEquals("gpu", read.claim("ns", "c1").orElseThrow().requests().get(0).exactly().deviceClassName());
      assertEquals("r1", read.taintRules().get(0).name());
      assertSame(read, informers.snapshot(List.of()).dynamicResources(), "the same objects until something changes");
      assertSame(devices, informers.devices());
      assertEquals(List.of(), heard, "the initial list tells nothing");

      client.resources(ResourceSlice.class).resource(slice("s2", "g1")).create();
      client.resources(ResourceClaim.class).inNamespace("ns").withName("c1").delete();
      client.genericKubernetesResources(ClusterDataInformers.DEVICE_TAINT_RULES).withName("r1").delete();
      eventually(() -> heard.size() == 3);
      assertEquals(
          Set.of(
              "resource.k8s.io/ResourceSliceAdd", "resource.k8s.io/ResourceClaimDelete",
              "resource.k8s.io/DeviceTaintRuleDelete"),
          Set.copyOf(heard));
      eventually(() -> informers.snapshot(List.of()).dynamicResources().claims().isEmpty());

      // The loop assumes an allocation for a pod; then the watch is lost and the informers relist.
      var claim = client.resources(ResourceClaim.class).inNamespace("ns").resource(claim("c2")).create();
      eventually(() -> informers.snapshot(List.of()).dynamicResources().claim("ns", "c2").isPresent());
      var allocation =
          new io.kubesched.api.AllocationResult(
              List.of(new DeviceAllocation("r", "d", "p", "g0", false, List.of(), List.of(), List.of(), null, Map.of())),
              List.of(), null, null);
      devices.assume("pod-1", List.of(new ClaimAllocation("ns", "c2", claim.getMetadata().getUid(), allocation)));

      informers.restart().await(System.nanoTime() + SYNC.toNanos());

      assertSame(devices, informers.devices(), "one DeviceCache across restarts");
      var relisted = informers.snapshot(List.of()).dynamicResources();
      assertEquals(allocation, relisted.claim("ns", "c2").orElseThrow().allocation(), "the assumption survives");
      assertEquals(2, relisted.slices().size());
      assertTrue(relisted.taintRules().isEmpty());
    }
  }

  /**
   * What the claims' informer tells the queue's hints (kube's {@code TestIsSchedulableAfterClaimChange}: metadata
   * written, as a finalizer added, is no event; a status change is; deallocation and deletion while allocated free devices).
   */
  @Test
  void claim_events_say_which_claim_and_whether_devices_were_freed() throws Exception {
    try (var informers = informers(Set.of(ClusterData.RESOURCE_CLAIMS))) {
      informers.start().await(System.nanoTime() + SYNC.toNanos());
      var claims = client.resources(ResourceClaim.class).inNamespace("ns");

      claims.resource(claim("c1")).create();
      eventually(() -> claimEvents.size() == 1);
      claims.withName("c1").edit(c -> {
        c.getMetadata().setLabels(Map.of("driver", "seen")); // as a finalizer would: no status change
        return c;
      });
      claims.withName("c1").editStatus(c -> {
        c.setStatus(new ResourceClaimStatusBuilder()
            .withAllocation(JSON.unmarshal(ALLOCATION, AllocationResult.class)).build());
        return c;
      });
      eventually(() -> claimEvents.size() == 2);
      claims.withName("c1").editStatus(c -> {
        c.getStatus().setAllocation(null);
        return c;
      });
      eventually(() -> claimEvents.size() == 3);
      claims.resource(claim("c2")).create();
      eventually(() -> claimEvents.size() == 4);
      claims.withName("c2").editStatus(c -> {
        c.setStatus(new ResourceClaimStatusBuilder()
            .withAllocation(JSON.unmarshal(ALLOCATION, AllocationResult.class)).build());
        return c;
      });
      eventually(() -> claimEvents.size() == 5);
      claims.withName("c2").delete();
      claims.withName("c1").delete();
      eventually(() -> claimEvents.size() == 7);

      assertEquals(
          List.of(
              "resource.k8s.io/ResourceClaimAdd ns/c1",
              "resource.k8s.io/ResourceClaimUpdate ns/c1",
              "resource.k8s.io/ResourceClaimUpdate ns/c1 frees devices",
              "resource.k8s.io/ResourceClaimAdd ns/c2",
              "resource.k8s.io/ResourceClaimUpdate ns/c2",
              "resource.k8s.io/ResourceClaimDelete ns/c2 frees devices",
              "resource.k8s.io/ResourceClaimDelete ns/c1"),
          claimEvents);
    }
  }

  @Test
  void a_malformed_object_is_left_out_and_the_informer_goes_on() throws Exception {
    try (var informers = informers(Set.of(ClusterData.RESOURCE_SLICES))) {
      informers.start().await(System.nanoTime() + SYNC.toNanos());

      var bad = slice("bad", "g0");
      bad.getSpec().setAllNodes(null); // selects no node
      client.resources(ResourceSlice.class).resource(bad).create();
      client.resources(ResourceSlice.class).resource(slice("good", "g1")).create();

      eventually(() -> informers.snapshot(List.of()).dynamicResources().slices().size() == 1);
      assertEquals("good", informers.snapshot(List.of()).dynamicResources().slices().get(0).name());
      eventually(() -> !heard.isEmpty());
      assertEquals(List.of("resource.k8s.io/ResourceSliceAdd"), heard, "only the object that could be read");
    }
  }

  private static DeviceClass deviceClass(String name) {
    return JSON.unmarshal(
        "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"DeviceClass\", \"metadata\": {\"name\": \"" + name
            + "\"}, \"spec\": {\"selectors\": [{\"cel\": {\"expression\": \"true\"}}]}}",
        DeviceClass.class);
  }

  private static ResourceSlice slice(String name, String device) {
    return JSON.unmarshal(
        "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceSlice\", \"metadata\": {\"name\": \"" + name
            + "\"}, \"spec\": {\"driver\": \"d\", \"allNodes\": true, \"pool\": {\"name\": \"p\", \"generation\": 1,"
            + " \"resourceSliceCount\": 1}, \"devices\": [{\"name\": \"" + device + "\", \"attributes\":"
            + " {\"model\": {\"string\": \"a\"}}, \"capacity\": {\"memory\": {\"value\": \"1Gi\"}}}]}}",
        ResourceSlice.class);
  }

  private static final String ALLOCATION =
      "{\"devices\": {\"results\": [{\"request\": \"r\", \"driver\": \"d\", \"pool\": \"p\","
          + " \"device\": \"g0\"}]}}";

  private static ResourceClaim claim(String name) {
    return JSON.unmarshal(
        "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceClaim\", \"metadata\": {\"namespace\": \"ns\","
            + " \"name\": \"" + name + "\"}, \"spec\": {\"devices\": {\"requests\": [{\"name\": \"r\", \"exactly\":"
            + " {\"deviceClassName\": \"gpu\"}}]}}}",
        ResourceClaim.class);
  }

  private static GenericKubernetesResource rule(String name) {
    return JSON.unmarshal(
        "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"DeviceTaintRule\", \"metadata\": {\"name\": \"" + name
            + "\"}, \"spec\": {\"deviceSelector\": {\"driver\": \"d\"}, \"taint\": {\"key\": \"k\","
            + " \"effect\": \"NoSchedule\"}}}",
        GenericKubernetesResource.class);
  }

  private static void eventually(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "timed out");
      Thread.sleep(20);
    }
  }
}
