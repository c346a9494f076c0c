package io.kubesched.binder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link ClaimWriter}'s reservation, against fabric8's CRUD mock server (the e2e suite checks the real one). */
class ClaimWriterTest {

  private static final String NS = "team-a";
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-02T10:00:00.4Z"), ZoneOffset.UTC);

  private final AtomicInteger tokens = new AtomicInteger();
  private final TokenBucket counting =
      new TokenBucket() {
        @Override
        public void acquire() {
          tokens.incrementAndGet();
        }

        @Override
        public boolean tryAcquire() {
          tokens.incrementAndGet();
          return true;
        }
      };

  private KubernetesMockServer server;
  private NamespacedKubernetesClient client;

  @AfterEach
  void stopServer() {
    client.close();
    server.destroy();
  }

  private ClaimWriter writer() {
    server = BinderFixtures.crudServer();
    client = server.createClient(new JdkHttpClientFactory());
    return new ClaimWriter(client, counting, CLOCK);
  }

  private static AllocationResult allocation(String device) {
    return new AllocationResultBuilder().withNewDevices().addNewResult().withRequest("gpu").withDriver("gpu.example.com")
        .withPool("node-1").withDevice(device).endResult().endDevices().build();
  }

  private ResourceClaim create(@Nullable AllocationResult allocation, String... reservedForUids) {
    var builder = new ResourceClaimBuilder().withNewMetadata().withNamespace(NS).withName("gpu").endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("gpu.example.com").endExactly().endRequest().endDevices().endSpec();
    var created = client.resources(ResourceClaim.class).inNamespace(NS).resource(builder.build()).create();
    if (allocation != null || reservedForUids.length > 0) {
      created.setStatus(new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus());
      created.getStatus().setAllocation(allocation);
      for (var uid : reservedForUids) {
        created.getStatus().getReservedFor().add(
            new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReferenceBuilder().withResource("pods")
                .withName("other").withUid(uid).build());
      }
      created = client.resources(ResourceClaim.class).inNamespace(NS).resource(created).updateStatus();
    }
    return created;
  }

  private ResourceClaim stored() {
    return client.resources(ResourceClaim.class).inNamespace(NS).withName("gpu").get();
  }

  @Test
  @DisplayName("an allocation is written with kube's finalizer, the pod in reservedFor and an allocation timestamp")
  void allocationWritten() throws Exception {
    var writer = writer();
    var uid = create(null).getMetadata().getUid();

    assertEquals(new ClaimOutcome.Written(), writer.reserve(NS, "gpu", uid, allocation("gpu-0"), "p", "uid-p"));

    var claim = stored();
    assertEquals(List.of(ClaimWriter.FINALIZER), claim.getMetadata().getFinalizers());
    var written = claim.getStatus().getAllocation();
    assertEquals("gpu-0", written.getDevices().getResults().get(0).getDevice());
    assertEquals("2026-12-02T10:00:00Z", written.getAllocationTimestamp());
    var reserved = claim.getStatus().getReservedFor();
    assertEquals(1, reserved.size());
    assertEquals("pods", reserved.get(0).getResource());
    assertEquals("p", reserved.get(0).getName());
    assertEquals("uid-p", reserved.get(0).getUid());
  }

  @Test
  @DisplayName("a claim already allocated gets only the reservation; its allocation stays")
  void reservationOnly() throws Exception {
    var writer = writer();
    var uid = create(allocation("gpu-7"), "uid-other").getMetadata().getUid();

    assertEquals(new ClaimOutcome.Written(), writer.reserve(NS, "gpu", uid, null, "p", "uid-p"));

    var claim = stored();
    assertEquals("gpu-7", claim.getStatus().getAllocation().getDevices().getResults().get(0).getDevice());
    assertEquals(
        List.of("uid-other", "uid-p"), claim.getStatus().getReservedFor().stream().map(r -> r.getUid()).toList());
  }

  @Test
  @DisplayName("a claim allocated elsewhere meanwhile is not overwritten")
  void allocatedElsewhere() throws Exception {
    var writer = writer();
    var uid = create(allocation("gpu-7")).getMetadata().getUid();

    var failed =
        assertInstanceOf(ClaimOutcome.Failed.class, writer.reserve(NS, "gpu", uid, allocation("gpu-0"), "p", "uid-p"));

    assertEquals("claim team-a/gpu got allocated elsewhere in the meantime", failed.detail());
    assertEquals("gpu-7", stored().getStatus().getAllocation().getDevices().getResults().get(0).getDevice());
  }

  @Test
  @DisplayName("a claim deallocated meanwhile cannot be reserved")
  void deallocatedElsewhere() throws Exception {
    var writer = writer();
    var uid = create(null).getMetadata().getUid();

    var failed = assertInstanceOf(ClaimOutcome.Failed.class, writer.reserve(NS, "gpu", uid, null, "p", "uid-p"));

    assertEquals("claim team-a/gpu got deallocated elsewhere in the meantime", failed.detail());
  }

  @Test
  @DisplayName("a claim created again under the same name, or gone, is not written")
  void replacedClaim() throws Exception {
    var writer = writer();
    create(null);

    var failed =
        assertInstanceOf(
            ClaimOutcome.Failed.class, writer.reserve(NS, "gpu", "old-uid", allocation("gpu-0"), "p", "uid-p"));

    assertEquals(
        "add allocation and reservation to claim team-a/gpu: resourceclaims.resource.k8s.io \"gpu\" not found",
        failed.detail());
    assertNull(stored().getStatus() == null ? null : stored().getStatus().getAllocation());
  }

  @Test
  @DisplayName("a claim already reserved for the pod is Written again without a write")
  void alreadyReserved() throws Exception {
    var writer = writer();
    var created = create(allocation("gpu-0"), "uid-p");

    assertEquals(
        new ClaimOutcome.Written(), writer.reserve(NS, "gpu", created.getMetadata().getUid(), null, "p", "uid-p"));
    assertEquals(created.getMetadata().getResourceVersion(), stored().getMetadata().getResourceVersion());
  }

  @Test
  @DisplayName("the claim for extended resources is created with a generated name, and deleted again without its finalizer")
  void createThenDelete() throws InterruptedException {
    var writer = writer();
    var claim = new ResourceClaimBuilder().withNewMetadata().withNamespace(NS).withGenerateName("p-extended-resources-")
        .addToAnnotations("resource.kubernetes.io/extended-resource-claim", "true").endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("container-0-request-0").withNewExactly()
        .withDeviceClassName("gpu.example.com").withAllocationMode("ExactCount").withCount(1L).endExactly().endRequest()
        .endDevices().endSpec().build();

    var created = assertInstanceOf(ClaimOutcome.Created.class, writer.create(claim));
    var stored = client.resources(ResourceClaim.class).inNamespace(NS).withName(created.name()).get();
    assertEquals(created.uid(), stored.getMetadata().getUid());
    assertEquals("true", stored.getMetadata().getAnnotations().get("resource.kubernetes.io/extended-resource-claim"));

    assertEquals(new ClaimOutcome.Written(), writer.reserve(NS, created.name(), created.uid(), allocation("gpu-0"), "p", "uid-p"));
    assertEquals(List.of(ClaimWriter.FINALIZER),
        client.resources(ResourceClaim.class).inNamespace(NS).withName(created.name()).get().getMetadata().getFinalizers());

    assertTrue(writer.delete(NS, created.name(), created.uid()));
    assertNull(client.resources(ResourceClaim.class).inNamespace(NS).withName(created.name()).get());
  }

  @Test
  @DisplayName("a claim of another uid under the name is not deleted")
  void deleteChecksTheUid() throws InterruptedException {
    var writer = writer();
    var existing = create(null);

    assertFalse(writer.delete(NS, "gpu", "some-other-uid"));

    assertEquals(existing.getMetadata().getUid(),
        client.resources(ResourceClaim.class).inNamespace(NS).withName("gpu").get().getMetadata().getUid());
  }

  @Test
  @DisplayName("the pod's extendedResourceClaimStatus names the claim and the request mappings")
  void podStatus() throws InterruptedException {
    var writer = writer();
    var pod = client.pods().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
        .withNamespace(NS).withName("p").endMetadata().withNewSpec().addNewContainer().withName("c").withImage("i")
        .endContainer().endSpec().build()).create();
    var mapping = new io.fabric8.kubernetes.api.model.ContainerExtendedResourceRequestBuilder().withContainerName("c")
        .withResourceName("example.com/gpu").withRequestName("container-0-request-0").build();

    assertEquals(new ClaimOutcome.Written(), writer.writeExtendedResourceClaimStatus(
        NS, "p", pod.getMetadata().getUid(), "p-extended-resources-abc", List.of(mapping)));

    var status = client.pods().inNamespace(NS).withName("p").get().getStatus().getExtendedResourceClaimStatus();
    assertEquals("p-extended-resources-abc", status.getResourceClaimName());
    assertEquals(List.of(mapping), status.getRequestMappings());
  }

  @Test
  @DisplayName("no mappings is kube's error, and nothing is written")
  void noMappings() throws InterruptedException {
    var writer = writer();
    assertEquals(
        new ClaimOutcome.Failed("nil or empty request mappings, no update of pod team-a/p ExtendedResourceClaimStatus"),
        writer.writeExtendedResourceClaimStatus(NS, "p", "uid-p", "claim", List.of()));
  }
}
