package io.kubesched.informer.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.storage.CSIDriverBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.kubesched.api.ClusterData;
import io.kubesched.api.Storage;
import io.kubesched.api.VolumeBinding;
import io.kubesched.engine.ClusterEvent;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The storage informers of {@link ClusterDataInformers}: what they watch, what they feed, what they report. */
class StorageInformersTest {

  private static final Duration SYNC = Duration.ofSeconds(30);
  private static final Map<String, ClusterData> PATHS =
      Map.of(
          "/api/v1/persistentvolumeclaims?", ClusterData.PERSISTENT_VOLUME_CLAIMS,
          "/api/v1/persistentvolumes?", ClusterData.PERSISTENT_VOLUMES,
          "/apis/storage.k8s.io/v1/storageclasses?", ClusterData.STORAGE_CLASSES,
          "/apis/storage.k8s.io/v1/csinodes?", ClusterData.CSI_NODES,
          "/apis/storage.k8s.io/v1/csidrivers?", ClusterData.CSI_DRIVERS,
          "/apis/storage.k8s.io/v1/csistoragecapacities?", ClusterData.CSI_STORAGE_CAPACITIES);

  private KubernetesMockServer server;
  private KubernetesClient client;
  private final List<String> heard = new CopyOnWriteArrayList<>();
  private final ClusterDataInformers.StorageEvents events =
      new ClusterDataInformers.StorageEvents() {
        @Override
        public void claimChanged(ClusterEvent event, String namespace, String name) {
          heard.add(event.label() + " " + namespace + "/" + name);
        }

        @Override
        public void storageChanged(ClusterEvent event) {
          heard.add(event.label());
        }
      };

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
  void each_storage_kind_is_watched_only_where_it_is_read() throws Exception {
    try (var informers = new ClusterDataInformers(
        client, Set.of(ClusterData.PERSISTENT_VOLUMES, ClusterData.CSI_DRIVERS), ignored -> {}, events)) {
      informers.start().await(System.nanoTime() + SYNC.toNanos());
    }
    assertEquals(EnumSet.of(ClusterData.PERSISTENT_VOLUMES, ClusterData.CSI_DRIVERS), requested());
  }

  @Test
  void every_storage_kind_read_is_watched() throws Exception {
    var all = EnumSet.of(
        ClusterData.PERSISTENT_VOLUME_CLAIMS, ClusterData.PERSISTENT_VOLUMES, ClusterData.STORAGE_CLASSES,
        ClusterData.CSI_NODES, ClusterData.CSI_DRIVERS, ClusterData.CSI_STORAGE_CAPACITIES);
    try (var informers = new ClusterDataInformers(client, all, ignored -> {}, events)) {
      informers.start().await(System.nanoTime() + SYNC.toNanos());
      assertEquals(6, informers.versions().size());
    }
    assertEquals(all, requested());
  }

  @Test
  void a_policy_that_reads_no_storage_gets_empty_storage() throws Exception {
    client.storage().v1().storageClasses().resource(storageClass("fast", "Immediate")).create();
    try (var informers = new ClusterDataInformers(client, Set.of(ClusterData.NAMESPACES), ignored -> {}, events)) {
      informers.start().await(System.nanoTime() + SYNC.toNanos());

      assertSame(Storage.empty(), informers.snapshot(List.of()).storage());
    }
  }

  @Test
  void objects_reach_the_snapshot_changes_are_reported_after_the_initial_list_and_a_restart_keeps_reservations()
      throws Exception {
    client.persistentVolumeClaims().inNamespace("ns").resource(claim("data", "fast")).create();
    client.storage().v1().storageClasses().resource(storageClass("fast", "Immediate")).create();
    client.storage().v1().csiDrivers().resource(new CSIDriverBuilder().withNewMetadata().withName("d").endMetadata()
        .build()).create();
    var reads = Set.of(ClusterData.PERSISTENT_VOLUME_CLAIMS, ClusterData.STORAGE_CLASSES, ClusterData.CSI_DRIVERS);
    try (var informers = new ClusterDataInformers(client, reads, ignored -> {}, events)) {
      var cache = informers.storage();
      informers.start().await(System.nanoTime() + SYNC.toNanos());

      var storage = informers.snapshot(List.of()).storage();
      assertEquals("fast", storage.claim("ns", "data").orElseThrow().storageClassName());
      assertTrue(storage.storageClass("fast").isPresent());
      assertTrue(storage.csiDriver("d").isPresent());
      assertSame(storage, informers.snapshot(List.of()).storage(), "the same storage until something changes");
      assertEquals(List.of(), heard, "the initial list tells nothing");

      client.persistentVolumeClaims().inNamespace("ns").resource(claim("logs", "fast")).create();
      client.storage().v1().storageClasses().withName("fast").edit(sc -> storageClass("fast", "WaitForFirstConsumer"));
      client.storage().v1().csiDrivers().resource(new CSIDriverBuilder().withNewMetadata().withName("e").endMetadata()
          .build()).create();
      client.storage().v1().csiDrivers().withName("d").edit(d -> new CSIDriverBuilder(d).withNewSpec()
          .withAttachRequired(false).endSpec().build());
      eventually(() -> heard.size() == 3);
      eventually(() -> !informers.snapshot(List.of()).storage().csiDriver("d").orElseThrow().attachRequired());
      assertEquals(
          Set.of("PersistentVolumeClaimAdd ns/logs", "storage.k8s.io/StorageClassUpdate",
              "storage.k8s.io/CSIDriverUpdate"),
          Set.copyOf(heard),
          "a CSIDriver added is not reported, as kube registers none");
      assertTrue(informers.snapshot(List.of()).storage().storageClass("fast").orElseThrow().waitForFirstConsumer());

      // The loop reserves the claim for a pod; then the watch is lost and the informers relist.
      assertEquals(Optional.empty(), cache.reserve("pod-1", "node-a",
          List.of(new VolumeBinding.Provision("ns", "data", ""))));
      client.persistentVolumeClaims().inNamespace("ns").withName("logs").delete();
      eventually(() -> informers.snapshot(List.of()).storage().claim("ns", "logs").isEmpty());

      informers.restart().await(System.nanoTime() + SYNC.toNanos());

      assertSame(cache, informers.storage(), "one StorageCache across restarts");
      var relisted = informers.snapshot(List.of()).storage();
      assertEquals("node-a", relisted.claim("ns", "data").orElseThrow().selectedNode(), "the reservation survives");
      assertTrue(relisted.claim("ns", "logs").isEmpty());
      assertEquals(3, heard.size(), "a restart's list tells nothing");
      eventually(informers::isWatching);

      client.persistentVolumeClaims().inNamespace("ns").withName("data").edit(c -> claim("data", "slow"));
      eventually(() -> heard.size() == 4);
      assertEquals("PersistentVolumeClaimUpdate ns/data", heard.get(3));
    }
  }

  @Test
  void an_object_that_cannot_be_read_is_left_out_and_the_informer_goes_on() throws Exception {
    try (var informers =
        new ClusterDataInformers(client, Set.of(ClusterData.PERSISTENT_VOLUMES), ignored -> {}, events)) {
      informers.start().await(System.nanoTime() + SYNC.toNanos());

      client.persistentVolumes().resource(new PersistentVolumeBuilder().withNewMetadata().withName("bad").endMetadata()
          .withNewSpec().withVolumeMode("Raw").endSpec().build()).create();
      client.persistentVolumes().resource(new PersistentVolumeBuilder().withNewMetadata().withName("good").endMetadata()
          .withNewSpec().endSpec().build()).create();

      eventually(() -> informers.snapshot(List.of()).storage().volume("good").isPresent());
      assertTrue(informers.snapshot(List.of()).storage().volume("bad").isEmpty());
      eventually(() -> !heard.isEmpty());
      assertEquals(List.of("PersistentVolumeAdd"), heard, "only the object that could be read");
    }
  }

  private static io.fabric8.kubernetes.api.model.PersistentVolumeClaim claim(String name, String className) {
    return new PersistentVolumeClaimBuilder().withNewMetadata().withNamespace("ns").withName(name).endMetadata()
        .withNewSpec().withStorageClassName(className).withAccessModes("ReadWriteOnce").endSpec().build();
  }

  private static io.fabric8.kubernetes.api.model.storage.StorageClass storageClass(String name, String mode) {
    return new StorageClassBuilder().withNewMetadata().withName(name).endMetadata()
        .withProvisioner("csi.example.com").withVolumeBindingMode(mode).build();
  }

  private static void eventually(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "timed out");
      Thread.sleep(20);
    }
  }
}
