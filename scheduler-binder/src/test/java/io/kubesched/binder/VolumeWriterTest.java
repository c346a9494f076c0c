package io.kubesched.binder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** {@link VolumeWriter}'s two writes, against fabric8's mock server. */
class VolumeWriterTest {

  private static final String NS = "team-a";
  private static final String CLAIM = "data";
  private static final String CLAIM_UID = "claim-uid";
  private static final String PV = "pv-1";
  private static final String PV_PATH = "/api/v1/persistentvolumes/" + PV;

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

  static PersistentVolume volume(String claimNs, String claimName, String claimUid) {
    var builder =
        new PersistentVolumeBuilder()
            .withNewMetadata().withName(PV).withResourceVersion("1").endMetadata()
            .withNewSpec().withStorageClassName("local").endSpec();
    if (claimName != null) {
      builder.editSpec()
          .withClaimRef(new ObjectReferenceBuilder().withKind("PersistentVolumeClaim").withApiVersion("v1")
              .withNamespace(claimNs).withName(claimName).withUid(claimUid).build())
          .endSpec();
    }
    return builder.build();
  }

  static PersistentVolumeClaim claim(String uid, Map<String, String> annotations) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withNamespace(NS).withName(CLAIM).withUid(uid).withAnnotations(annotations).endMetadata()
        .withNewSpec().withStorageClassName("wait").endSpec()
        .build();
  }

  @Nested
  class AgainstTheCrudServer {

    VolumeWriter writer() {
      server = BinderFixtures.crudServer();
      client = server.createClient(new JdkHttpClientFactory());
      return new VolumeWriter(client, counting);
    }

    @Test
    @DisplayName("a free volume gets the claim as its claimRef, kind and apiVersion included")
    void freeVolumeIsBound() throws Exception {
      var writer = writer();
      client.persistentVolumes().resource(volume(null, null, null)).create();

      assertEquals(new VolumeOutcome.Written(), writer.bindVolume(PV, NS, CLAIM, CLAIM_UID));

      var ref = client.persistentVolumes().withName(PV).get().getSpec().getClaimRef();
      assertEquals(
          new ObjectReferenceBuilder().withKind("PersistentVolumeClaim").withApiVersion("v1").withNamespace(NS)
              .withName(CLAIM).withUid(CLAIM_UID).build(),
          ref);
      var stored = client.persistentVolumes().withName(PV).get();
      assertEquals("local", stored.getSpec().getStorageClassName());
      assertEquals("yes", stored.getMetadata().getAnnotations().get(VolumeWriter.BOUND_BY_CONTROLLER));
      assertEquals(1, tokens.get(), "one write, one token");
    }

    @Test
    @DisplayName("a volume pre-bound to the claim by name gets its uid and no bound-by-controller mark")
    void preBoundVolumeGetsTheUid() throws Exception {
      var writer = writer();
      client.persistentVolumes().resource(volume(NS, CLAIM, "")).create();

      assertEquals(new VolumeOutcome.Written(), writer.bindVolume(PV, NS, CLAIM, CLAIM_UID));

      var stored = client.persistentVolumes().withName(PV).get();
      assertEquals(CLAIM_UID, stored.getSpec().getClaimRef().getUid());
      var annotations = stored.getMetadata().getAnnotations();
      assertNull(annotations == null ? null : annotations.get(VolumeWriter.BOUND_BY_CONTROLLER));
    }

    @Test
    @DisplayName("a volume bound to an earlier claim of the same name fails")
    void volumeOfAnEarlierClaimOfTheNameFails() throws Exception {
      var writer = writer();
      client.persistentVolumes().resource(volume(NS, CLAIM, "old-uid")).create();

      assertInstanceOf(VolumeOutcome.Failed.class, writer.bindVolume(PV, NS, CLAIM, CLAIM_UID));
    }

    @Test
    @DisplayName("a volume bound to another claim fails and is left as it is")
    void volumeOfAnotherClaimFails() throws Exception {
      var writer = writer();
      client.persistentVolumes().resource(volume(NS, "other", "other-uid")).create();

      var failed = assertInstanceOf(VolumeOutcome.Failed.class, writer.bindVolume(PV, NS, CLAIM, CLAIM_UID));

      assertEquals("persistentvolume \"pv-1\" is already bound to claim team-a/other", failed.detail());
      assertEquals("other", client.persistentVolumes().withName(PV).get().getSpec().getClaimRef().getName());
    }

    @Test
    @DisplayName("a volume that already refers to the claim is Written without an update")
    void volumeAlreadyBoundToTheClaim() throws Exception {
      var writer = writer();
      var created = client.persistentVolumes().resource(volume(NS, CLAIM, CLAIM_UID)).create();

      assertEquals(new VolumeOutcome.Written(), writer.bindVolume(PV, NS, CLAIM, CLAIM_UID));
      assertEquals(
          created.getMetadata().getResourceVersion(),
          client.persistentVolumes().withName(PV).get().getMetadata().getResourceVersion());
    }

    @Test
    @DisplayName("a missing volume fails with the API server's NotFound words")
    void missingVolumeFails() throws Exception {
      var failed =
          assertInstanceOf(VolumeOutcome.Failed.class, writer().bindVolume(PV, NS, CLAIM, CLAIM_UID));
      assertEquals("persistentvolumes \"pv-1\" not found", failed.detail());
    }

    @Test
    @DisplayName("a claim gets the selected-node annotation beside the ones it has")
    void claimGetsSelectedNode() throws Exception {
      var writer = writer();
      var created =
          client.persistentVolumeClaims().inNamespace(NS).resource(claim(CLAIM_UID, Map.of("keep", "me"))).create();
      var uid = created.getMetadata().getUid(); // the server gives it one of its own

      assertEquals(new VolumeOutcome.Written(), writer.selectNode(NS, CLAIM, uid, "node-1"));

      var annotations = client.persistentVolumeClaims().inNamespace(NS).withName(CLAIM).get().getMetadata()
          .getAnnotations();
      assertEquals(Map.of("keep", "me", VolumeWriter.SELECTED_NODE, "node-1"), annotations);
      assertEquals(1, tokens.get());
    }

    @Test
    @DisplayName("a claim created again under the same name is not annotated")
    void replacedClaimFails() throws Exception {
      var writer = writer();
      client.persistentVolumeClaims().inNamespace(NS).resource(claim("new-uid", Map.of())).create();

      var failed =
          assertInstanceOf(VolumeOutcome.Failed.class, writer.selectNode(NS, CLAIM, CLAIM_UID, "node-1"));

      assertEquals("persistentvolumeclaims \"data\" not found", failed.detail());
      var annotations = client.persistentVolumeClaims().inNamespace(NS).withName(CLAIM).get().getMetadata()
          .getAnnotations();
      assertNull(annotations == null ? null : annotations.get(VolumeWriter.SELECTED_NODE));
    }
  }

  @Nested
  class OnConflict {

    VolumeWriter writer() {
      server = BinderFixtures.expectationsServer();
      client = BinderFixtures.clientWithoutRetries(server);
      return new VolumeWriter(client, counting);
    }

    private void conflictOnUpdate() {
      server.expect().put().withPath(PV_PATH)
          .andReturn(409, new StatusBuilder().withCode(409).withReason("Conflict")
              .withMessage("Operation cannot be fulfilled on persistentvolumes \"pv-1\": the object has been"
                  + " modified; please apply your changes to the latest version and try again")
              .build())
          .once();
    }

    @Test
    @DisplayName("a volume changed meanwhile fails with the API server's conflict message")
    void changedMeanwhileFails() throws Exception {
      var writer = writer();
      server.expect().get().withPath(PV_PATH).andReturn(200, volume(null, null, null)).once();
      conflictOnUpdate();
      server.expect().get().withPath(PV_PATH).andReturn(200, volume(NS, "other", "other-uid")).once();

      var failed = assertInstanceOf(VolumeOutcome.Failed.class, writer.bindVolume(PV, NS, CLAIM, CLAIM_UID));

      assertEquals(
          "Operation cannot be fulfilled on persistentvolumes \"pv-1\": the object has been modified; please apply"
              + " your changes to the latest version and try again",
          failed.detail());
    }

    @Test
    @DisplayName("a conflict after which the volume refers to the claim was our own retried write: Written")
    void echoOfOwnWriteIsWritten() throws Exception {
      var writer = writer();
      server.expect().get().withPath(PV_PATH).andReturn(200, volume(null, null, null)).once();
      conflictOnUpdate();
      server.expect().get().withPath(PV_PATH).andReturn(200, volume(NS, CLAIM, CLAIM_UID)).once();

      assertEquals(new VolumeOutcome.Written(), writer.bindVolume(PV, NS, CLAIM, CLAIM_UID));
    }

    @Test
    @DisplayName("a server error fails with its message")
    void serverErrorFails() throws Exception {
      var writer = writer();
      server.expect().get().withPath(PV_PATH)
          .andReturn(500, new StatusBuilder().withCode(500).withMessage("etcd is down").build()).once();

      var failed = assertInstanceOf(VolumeOutcome.Failed.class, writer.bindVolume(PV, NS, CLAIM, CLAIM_UID));

      assertEquals("etcd is down", failed.detail());
    }
  }
}
