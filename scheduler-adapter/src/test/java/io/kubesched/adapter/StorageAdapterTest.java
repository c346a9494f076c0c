package io.kubesched.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TopologySelectorLabelRequirementBuilder;
import io.fabric8.kubernetes.api.model.TopologySelectorTermBuilder;
import io.fabric8.kubernetes.api.model.storage.CSIDriverBuilder;
import io.fabric8.kubernetes.api.model.storage.CSINodeBuilder;
import io.fabric8.kubernetes.api.model.storage.CSINodeDriverBuilder;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacityBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.kubesched.api.AccessMode;
import io.kubesched.api.ClaimRef;
import io.kubesched.api.CsiDriver;
import io.kubesched.api.CsiNode;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.NodeSelectorRequirement.Operator;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.VolumeMode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** {@link StorageAdapter}: each rule by which a storage object becomes its record. */
class StorageAdapterTest {

  private static PersistentVolumeClaimBuilder claim() {
    return new PersistentVolumeClaimBuilder().withNewMetadata().withNamespace("ns").withName("data").withUid("c1").endMetadata();
  }

  private static PersistentVolumeBuilder volume() {
    return new PersistentVolumeBuilder().withNewMetadata().withName("pv-1").endMetadata();
  }

  @Nested
  class Claims {

    @Test
    void a_bare_claim_reads_with_every_default() {
      var read = StorageAdapter.claim(claim().build());

      assertEquals(
          new PersistentVolumeClaim(
              "ns", "data", "c1", "", "", Set.of(), VolumeMode.FILESYSTEM, 0, null, "", false, false, false, "", ""),
          read);
      assertEquals("ns/data", read.key());
    }

    @Test
    void every_spec_field_is_read() {
      var read =
          StorageAdapter.claim(
              claim()
                  .withNewSpec()
                  .withStorageClassName("fast")
                  .withVolumeName("pv-1")
                  .withAccessModes("ReadWriteOnce", "ReadWriteOncePod")
                  .withVolumeMode("Block")
                  .withVolumeAttributesClassName("gold")
                  .withSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("tier", "db")).build())
                  .withNewResources()
                  .withRequests(Map.of("storage", new Quantity("1Gi")))
                  .endResources()
                  .endSpec()
                  .build());

      assertEquals("fast", read.storageClassName());
      assertEquals("pv-1", read.volumeName());
      assertTrue(read.isBound());
      assertEquals(Set.of(AccessMode.READ_WRITE_ONCE, AccessMode.READ_WRITE_ONCE_POD), read.accessModes());
      assertEquals(VolumeMode.BLOCK, read.volumeMode());
      assertEquals("gold", read.volumeAttributesClassName());
      assertEquals(LabelSelector.of(Map.of("tier", "db")), read.selector());
      assertEquals(1L << 30, read.requestedBytes());
    }

    @Test
    void the_legacy_storage_class_annotation_wins_over_the_spec_even_when_empty() {
      var annotated = claim().editMetadata().addToAnnotations(StorageAdapter.BETA_STORAGE_CLASS, "legacy").endMetadata()
          .withNewSpec().withStorageClassName("fast").endSpec().build();
      var empty = claim().editMetadata().addToAnnotations(StorageAdapter.BETA_STORAGE_CLASS, "").endMetadata()
          .withNewSpec().withStorageClassName("fast").endSpec().build();

      assertEquals("legacy", StorageAdapter.claim(annotated).storageClassName());
      assertEquals("", StorageAdapter.claim(empty).storageClassName());
    }

    @Test
    void a_fractional_request_is_rounded_up_to_whole_bytes() {
      var read = StorageAdapter.claim(
          claim().withNewSpec().withNewResources().withRequests(Map.of("storage", new Quantity("1500m"))).endResources()
              .endSpec().build());

      assertEquals(2, read.requestedBytes());
    }

    @Test
    void status_annotations_deletion_and_owner_are_read() {
      var read = StorageAdapter.claim(
          claim()
              .editMetadata()
              .withDeletionTimestamp("2026-11-26T10:00:00Z")
              .addToAnnotations(StorageAdapter.BIND_COMPLETED, "yes")
              .addToAnnotations(StorageAdapter.SELECTED_NODE, "node-a")
              .withOwnerReferences(
                  new OwnerReferenceBuilder().withKind("StatefulSet").withUid("s1").withController(false).build(),
                  new OwnerReferenceBuilder().withKind("Pod").withUid("p1").withController(true).build())
              .endMetadata()
              .withNewStatus().withPhase("Lost").endStatus()
              .build());

      assertTrue(read.lost());
      assertTrue(read.deleting());
      assertTrue(read.bindCompleted());
      assertEquals("node-a", read.selectedNode());
      assertEquals("p1", read.ownerPodUid());
    }

    @Test
    void a_pod_owner_that_is_not_the_controller_owns_nothing() {
      var read = StorageAdapter.claim(claim().editMetadata()
          .withOwnerReferences(new OwnerReferenceBuilder().withKind("Pod").withUid("p1").build()).endMetadata().build());

      assertEquals("", read.ownerPodUid());
      assertFalse(read.bindCompleted());
      assertFalse(read.lost());
    }

    @Test
    void an_unknown_access_mode_names_claim_field_and_value() {
      var e = assertThrows(MalformedObjectException.class,
          () -> StorageAdapter.claim(claim().withNewSpec().withAccessModes("ReadWriteOnce", "WriteOnly").endSpec().build()));

      assertEquals("PersistentVolumeClaim ns/data", e.object());
      assertEquals("spec.accessModes[1]", e.field());
      assertEquals("WriteOnly", e.value());
    }

    @Test
    void an_unknown_volume_mode_is_malformed() {
      var e = assertThrows(MalformedObjectException.class,
          () -> StorageAdapter.claim(claim().withNewSpec().withVolumeMode("Raw").endSpec().build()));

      assertEquals("spec.volumeMode", e.field());
      assertEquals("Raw", e.value());
    }

    @Test
    void a_malformed_request_is_malformed() {
      var e = assertThrows(MalformedObjectException.class,
          () -> StorageAdapter.claim(claim().withNewSpec().withNewResources()
              .withRequests(Map.of("storage", Fixtures.quantity("1Gx"))).endResources().endSpec().build()));

      assertEquals("spec.resources.requests.storage", e.field());
      assertEquals("1Gx", e.value());
    }

    @Test
    void a_selector_with_an_unknown_operator_is_malformed() {
      var e = assertThrows(MalformedObjectException.class,
          () -> StorageAdapter.claim(claim().withNewSpec().withNewSelector().addNewMatchExpression()
              .withKey("k").withOperator("Near").endMatchExpression().endSelector().endSpec().build()));

      assertEquals("spec.selector.matchExpressions[0].operator", e.field());
    }
  }

  @Nested
  class Volumes {

    @Test
    void a_bare_volume_is_pending_filesystem_with_no_driver() {
      assertEquals(
          new PersistentVolume("pv-1", "", 0, Set.of(), VolumeMode.FILESYSTEM, "", List.of(), Map.of(), null,
              PersistentVolume.Phase.PENDING, false, "", ""),
          StorageAdapter.volume(volume().build()));
    }

    @Test
    void every_field_is_read() {
      var read = StorageAdapter.volume(
          volume()
              .editMetadata().withLabels(Map.of("topology.kubernetes.io/zone", "z1"))
              .withDeletionTimestamp("2026-11-26T10:00:00Z").endMetadata()
              .withNewSpec()
              .withStorageClassName("fast")
              .withCapacity(Map.of("storage", new Quantity("10G")))
              .withAccessModes("ReadOnlyMany", "ReadWriteMany")
              .withVolumeMode("Filesystem")
              .withVolumeAttributesClassName("gold")
              .withNewNodeAffinity().withNewRequired()
              .withNodeSelectorTerms(new NodeSelectorTermBuilder().withMatchExpressions(
                  new NodeSelectorRequirementBuilder().withKey("zone").withOperator("In").withValues("z1").build()).build())
              .endRequired().endNodeAffinity()
              .withNewClaimRef().withNamespace("ns").withName("data").withUid("c1").endClaimRef()
              .withNewCsi().withDriver("csi.example.com").withVolumeHandle("h-1").endCsi()
              .endSpec()
              .withNewStatus().withPhase("Bound").endStatus()
              .build());

      assertEquals("fast", read.storageClassName());
      assertEquals(10_000_000_000L, read.capacityBytes());
      assertEquals(Set.of(AccessMode.READ_ONLY_MANY, AccessMode.READ_WRITE_MANY), read.accessModes());
      assertEquals(VolumeMode.FILESYSTEM, read.volumeMode());
      assertEquals("gold", read.volumeAttributesClassName());
      assertEquals(
          List.of(NodeSelectorTerm.ofExpressions(NodeSelectorRequirement.of("zone", Operator.IN, "z1"))),
          read.nodeAffinity());
      assertEquals(Map.of("topology.kubernetes.io/zone", "z1"), read.labels());
      assertEquals(new ClaimRef("ns", "data", "c1"), read.claimRef());
      assertEquals(PersistentVolume.Phase.BOUND, read.phase());
      assertTrue(read.deleting());
      assertEquals("csi.example.com", read.csiDriver());
      assertEquals("h-1", read.csiVolumeHandle());
    }

    @Test
    void the_legacy_storage_class_annotation_wins() {
      var read = StorageAdapter.volume(volume().editMetadata().addToAnnotations(StorageAdapter.BETA_STORAGE_CLASS, "old")
          .endMetadata().withNewSpec().withStorageClassName("fast").endSpec().build());

      assertEquals("old", read.storageClassName());
    }

    @Test
    void each_phase_is_read() {
      for (var phase : PersistentVolume.Phase.values()) {
        var text = phase.name().charAt(0) + phase.name().substring(1).toLowerCase();
        assertEquals(phase, StorageAdapter.volume(volume().withNewStatus().withPhase(text).endStatus().build()).phase());
      }
    }

    @Test
    void an_unknown_phase_is_malformed() {
      var e = assertThrows(MalformedObjectException.class,
          () -> StorageAdapter.volume(volume().withNewStatus().withPhase("Gone").endStatus().build()));

      assertEquals("PersistentVolume pv-1", e.object());
      assertEquals("status.phase", e.field());
      assertEquals("Gone", e.value());
    }

    @Test
    void an_unknown_node_affinity_operator_is_malformed() {
      var e = assertThrows(MalformedObjectException.class,
          () -> StorageAdapter.volume(volume().withNewSpec().withNewNodeAffinity().withNewRequired()
              .withNodeSelectorTerms(new NodeSelectorTermBuilder().withMatchExpressions(
                  new NodeSelectorRequirementBuilder().withKey("zone").withOperator("Near").build()).build())
              .endRequired().endNodeAffinity().endSpec().build()));

      assertEquals("spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].operator", e.field());
      assertEquals("Near", e.value());
    }

    @Test
    void a_malformed_capacity_is_malformed() {
      var e = assertThrows(MalformedObjectException.class,
          () -> StorageAdapter.volume(volume().withNewSpec().withCapacity(Map.of("storage", Fixtures.quantity("-1Gi")))
              .endSpec().build()));

      assertEquals("spec.capacity.storage", e.field());
    }
  }

  /** In-tree sources are named by the CSI driver kube migrates them to, with the translation library's handle. */
  @Nested
  class InTreeMigration {

    private PersistentVolume gce(Map<String, String> labels) {
      return StorageAdapter.volume(volume().editMetadata().withLabels(labels).endMetadata().withNewSpec()
          .withNewGcePersistentDisk().withPdName("disk-1").endGcePersistentDisk().endSpec().build());
    }

    @Test
    void a_gce_disk_with_one_zone_is_zonal() {
      var read = gce(Map.of("topology.kubernetes.io/zone", "us-east1-b"));

      assertEquals("pd.csi.storage.gke.io", read.csiDriver());
      assertEquals("projects/UNSPECIFIED/zones/us-east1-b/disks/disk-1", read.csiVolumeHandle());
    }

    @Test
    void a_gce_disk_prefers_the_beta_zone_label() {
      var read = gce(Map.of("failure-domain.beta.kubernetes.io/zone", "us-east1-c", "topology.kubernetes.io/zone", "x"));

      assertEquals("projects/UNSPECIFIED/zones/us-east1-c/disks/disk-1", read.csiVolumeHandle());
    }

    @Test
    void a_gce_disk_in_several_zones_of_a_region_is_regional() {
      var read = gce(Map.of("topology.kubernetes.io/zone", "us-east1-b__us-east1-c"));

      assertEquals("projects/UNSPECIFIED/regions/us-east1/disks/disk-1", read.csiVolumeHandle());
    }

    @Test
    void a_gce_disk_without_a_zone_has_an_unspecified_zone() {
      assertEquals("projects/UNSPECIFIED/zones/UNSPECIFIED/disks/disk-1", gce(Map.of()).csiVolumeHandle());
    }

    @Test
    void a_gce_disk_in_zones_of_two_regions_is_malformed() {
      var e = assertThrows(MalformedObjectException.class,
          () -> gce(Map.of("topology.kubernetes.io/zone", "us-east1-b__us-west1-a")));

      assertEquals("metadata.labels[topology.kubernetes.io/zone]", e.field());
      assertEquals("us-east1-b__us-west1-a", e.value());
    }

    private PersistentVolume ebs(String id) {
      return StorageAdapter.volume(volume().withNewSpec().withNewAwsElasticBlockStore().withVolumeID(id)
          .endAwsElasticBlockStore().endSpec().build());
    }

    @Test
    void an_ebs_volume_id_loses_its_url_prefix() {
      assertEquals("ebs.csi.aws.com", ebs("aws://us-east-1a/vol-123").csiDriver());
      assertEquals("vol-123", ebs("aws://us-east-1a/vol-123").csiVolumeHandle());
      assertEquals("vol-123", ebs("vol-123").csiVolumeHandle());
    }

    @Test
    void an_ebs_url_without_a_volume_id_is_malformed() {
      var e = assertThrows(MalformedObjectException.class, () -> ebs("aws://us-east-1a/disk-1"));

      assertEquals("spec.awsElasticBlockStore.volumeID", e.field());
      assertEquals("aws://us-east-1a/disk-1", e.value());
    }

    @Test
    void azure_disk_cinder_vsphere_and_portworx_keep_their_ids() {
      assertEquals(List.of("disk.csi.azure.com", "uri-1"), driver(volume().withNewSpec().withNewAzureDisk()
          .withDiskURI("uri-1").withDiskName("d").endAzureDisk().endSpec()));
      assertEquals(List.of("cinder.csi.openstack.org", "c-1"), driver(volume().withNewSpec().withNewCinder()
          .withVolumeID("c-1").endCinder().endSpec()));
      assertEquals(List.of("csi.vsphere.vmware.com", "[ds] v.vmdk"), driver(volume().withNewSpec()
          .withNewVsphereVolume().withVolumePath("[ds] v.vmdk").endVsphereVolume().endSpec()));
      assertEquals(List.of("pxd.portworx.com", "px-1"), driver(volume().withNewSpec().withNewPortworxVolume()
          .withVolumeID("px-1").endPortworxVolume().endSpec()));
    }

    @Test
    void an_azure_file_handle_joins_group_account_share_volume_and_namespace() {
      assertEquals(
          List.of("file.csi.azure.com", "rg#acct#share#pv-1#ns"),
          driver(volume().editMetadata().addToAnnotations("kubernetes.io/azure-file-resource-group", "rg")
              .endMetadata().withNewSpec().withNewAzureFile().withSecretName("azure-storage-account-acct-secret")
              .withShareName("share").endAzureFile().withNewClaimRef().withNamespace("ns").withName("c").endClaimRef()
              .endSpec()));
    }

    @Test
    void a_source_no_csi_driver_attaches_has_no_driver() {
      assertEquals(List.of("", ""), driver(volume().withNewSpec().withNewHostPath().withPath("/data").endHostPath().endSpec()));
      assertEquals(List.of("", ""), driver(volume().withNewSpec().withNewLocal().withPath("/data").endLocal().endSpec()));
    }

    @Test
    void the_driver_names_are_the_translation_librarys() {
      assertEquals("pd.csi.storage.gke.io", StorageAdapter.inTreeDrivers().get("gcePersistentDisk"));
      assertEquals("ebs.csi.aws.com", StorageAdapter.inTreeDrivers().get("awsElasticBlockStore"));
      assertEquals("disk.csi.azure.com", StorageAdapter.inTreeDrivers().get("azureDisk"));
      assertEquals("cinder.csi.openstack.org", StorageAdapter.inTreeDrivers().get("cinder"));
    }

    private List<String> driver(PersistentVolumeBuilder builder) {
      var read = StorageAdapter.volume(builder.build());
      return List.of(read.csiDriver(), read.csiVolumeHandle());
    }
  }

  @Nested
  class StorageClasses {

    @Test
    void a_bare_class_binds_immediately_anywhere() {
      var read = StorageAdapter.storageClass(new StorageClassBuilder().withNewMetadata().withName("std").endMetadata()
          .withProvisioner("kubernetes.io/no-provisioner").build());

      assertEquals(new io.kubesched.api.StorageClass("std", io.kubesched.api.StorageClass.NO_PROVISIONER, false, List.of()), read);
    }

    @Test
    void wait_for_first_consumer_and_allowed_topologies_as_in_requirements() {
      var read = StorageAdapter.storageClass(new StorageClassBuilder().withNewMetadata().withName("fast").endMetadata()
          .withProvisioner("csi.example.com").withVolumeBindingMode("WaitForFirstConsumer")
          .withAllowedTopologies(new TopologySelectorTermBuilder().withMatchLabelExpressions(
              new TopologySelectorLabelRequirementBuilder().withKey("zone").withValues("z1", "z2").build(),
              new TopologySelectorLabelRequirementBuilder().withKey("rack").withValues("r1").build()).build())
          .build());

      assertTrue(read.waitForFirstConsumer());
      assertEquals("csi.example.com", read.provisioner());
      assertEquals(
          List.of(NodeSelectorTerm.ofExpressions(
              NodeSelectorRequirement.of("zone", Operator.IN, "z1", "z2"),
              NodeSelectorRequirement.of("rack", Operator.IN, "r1"))),
          read.allowedTopologies());
    }

    @Test
    void immediate_binding_does_not_wait() {
      assertFalse(StorageAdapter.storageClass(new StorageClassBuilder().withNewMetadata().withName("s").endMetadata()
          .withVolumeBindingMode("Immediate").build()).waitForFirstConsumer());
    }
  }

  @Nested
  class CsiObjects {

    @Test
    void a_csi_node_reads_each_driver_with_no_count_as_no_limit() {
      var read = StorageAdapter.csiNode(new CSINodeBuilder().withNewMetadata().withName("node-a").endMetadata()
          .withNewSpec().withDrivers(
              new CSINodeDriverBuilder().withName("ebs.csi.aws.com").withNodeID("i-1").withNewAllocatable()
                  .withCount(25).endAllocatable().withTopologyKeys("topology.ebs.csi.aws.com/zone").build(),
              new CSINodeDriverBuilder().withName("nfs").withNodeID("n").build())
          .endSpec().build());

      assertEquals(
          new CsiNode("node-a", Map.of(
              "ebs.csi.aws.com", new CsiNode.Driver("ebs.csi.aws.com", "i-1", 25, List.of("topology.ebs.csi.aws.com/zone")),
              "nfs", new CsiNode.Driver("nfs", "n", -1, List.of()))),
          read);
      assertTrue(read.drivers().get("ebs.csi.aws.com").hasLimit());
      assertFalse(read.drivers().get("nfs").hasLimit());
    }

    @Test
    void a_csi_driver_requires_attach_unless_it_says_not_and_publishes_capacity_only_if_it_says_so() {
      assertEquals(new CsiDriver("d", true, false),
          StorageAdapter.csiDriver(new CSIDriverBuilder().withNewMetadata().withName("d").endMetadata().build()));
      assertEquals(new CsiDriver("d", false, true),
          StorageAdapter.csiDriver(new CSIDriverBuilder().withNewMetadata().withName("d").endMetadata().withNewSpec()
              .withAttachRequired(false).withStorageCapacity(true).endSpec().build()));
    }

    @Test
    void a_capacity_reads_bytes_and_topology_with_absent_amounts_as_unknown() {
      var full = StorageAdapter.capacity(new CSIStorageCapacityBuilder().withNewMetadata().withNamespace("kube-system")
          .withName("cap-1").endMetadata().withStorageClassName("fast")
          .withNodeTopology(new LabelSelectorBuilder().withMatchLabels(Map.of("zone", "z1")).build())
          .withCapacity(new Quantity("1Ki")).withMaximumVolumeSize(new Quantity("0.5Ki")).build());
      var bare = StorageAdapter.capacity(new CSIStorageCapacityBuilder().withNewMetadata().withNamespace("kube-system")
          .withName("cap-2").endMetadata().withStorageClassName("fast").build());

      assertEquals("fast", full.storageClassName());
      assertEquals(LabelSelector.of(Map.of("zone", "z1")), full.nodeTopology());
      assertEquals(1024, full.capacityBytes());
      assertEquals(512, full.maximumVolumeSizeBytes());
      assertNull(bare.nodeTopology());
      assertEquals(-1, bare.capacityBytes());
      assertEquals(-1, bare.maximumVolumeSizeBytes());
    }

    @Test
    void a_malformed_capacity_names_object_field_and_value() {
      var e = assertThrows(MalformedObjectException.class,
          () -> StorageAdapter.capacity(new CSIStorageCapacityBuilder().withNewMetadata().withNamespace("kube-system")
              .withName("cap-1").endMetadata().withCapacity(Fixtures.quantity("lots")).build()));

      assertEquals("CSIStorageCapacity kube-system/cap-1", e.object());
      assertEquals("capacity", e.field());
      assertEquals("lots", e.value());
    }
  }
}
