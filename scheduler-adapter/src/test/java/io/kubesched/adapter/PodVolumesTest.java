package io.kubesched.adapter;

import static io.kubesched.adapter.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.kubesched.api.Volume;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link PodAdapter#toPodInfo}: the volumes kube-scheduler's volume restrictions compare. */
class PodVolumesTest {

  private static VolumeBuilder volume(String name) {
    return new VolumeBuilder().withName(name);
  }

  @Test
  void a_pod_without_volumes_has_none() {
    assertEquals(List.of(), PodAdapter.toPodInfo(pod().build()).volumes());
  }

  @Test
  void the_four_conflicting_kinds_are_read_in_order_with_their_read_only_flags() {
    var pod =
        pod()
            .volume(volume("gce").withNewGcePersistentDisk().withPdName("disk-1").withReadOnly(true).endGcePersistentDisk().build())
            .volume(volume("ebs").withNewAwsElasticBlockStore().withVolumeID("vol-1").withReadOnly(false).endAwsElasticBlockStore().build())
            .volume(
                volume("rbd")
                    .withNewRbd()
                    .withMonitors("10.0.0.1:6789", "10.0.0.2:6789")
                    .withPool("kube")
                    .withImage("img")
                    .withReadOnly(true)
                    .endRbd()
                    .build())
            .volume(
                volume("iscsi")
                    .withNewIscsi()
                    .withTargetPortal("10.0.0.3:3260")
                    .withIqn("iqn.2016-04.test.com:storage.target00")
                    .withLun(7)
                    .endIscsi()
                    .build());

    assertEquals(
        List.of(
            new Volume.GcePersistentDisk("disk-1", true),
            new Volume.AwsElasticBlockStore("vol-1", false),
            new Volume.Rbd(List.of("10.0.0.1:6789", "10.0.0.2:6789"), "kube", "img", true),
            new Volume.Iscsi("10.0.0.3:3260", "iqn.2016-04.test.com:storage.target00", 7, false)),
        PodAdapter.toPodInfo(pod.build()).volumes());
  }

  @Test
  void volumes_of_other_kinds_are_not_carried() {
    var pod =
        pod()
            .volume(volume("tmp").withNewEmptyDir().endEmptyDir().build())
            .volume(volume("data").withNewPersistentVolumeClaim().withClaimName("pvc-1").endPersistentVolumeClaim().build())
            .volume(volume("cfg").withNewConfigMap().withName("cm").endConfigMap().build())
            .volume(volume("disk").withNewGcePersistentDisk().withPdName("d").endGcePersistentDisk().build());

    assertEquals(List.of(new Volume.GcePersistentDisk("d", false)), PodAdapter.toPodInfo(pod.build()).volumes());
  }

  @Test
  void an_unset_read_only_flag_is_false() {
    var pod = pod().volume(volume("ebs").withNewAwsElasticBlockStore().withVolumeID("vol-1").endAwsElasticBlockStore().build());

    assertEquals(List.of(new Volume.AwsElasticBlockStore("vol-1", false)), PodAdapter.toPodInfo(pod.build()).volumes());
  }

  @Test
  void an_rbd_volume_without_pool_is_in_the_api_server_s_default_pool() {
    var pod = pod().volume(volume("rbd").withNewRbd().withMonitors("m1").withImage("img").endRbd().build());

    assertEquals(List.of(new Volume.Rbd(List.of("m1"), "rbd", "img", false)), PodAdapter.toPodInfo(pod.build()).volumes());
  }

  @Test
  void an_iscsi_volume_without_lun_has_lun_zero() {
    var pod = pod().volume(volume("iscsi").withNewIscsi().withTargetPortal("p:3260").withIqn("iqn.x").endIscsi().build());

    assertEquals(List.of(new Volume.Iscsi("p:3260", "iqn.x", 0, false)), PodAdapter.toPodInfo(pod.build()).volumes());
  }

  @Test
  void the_lun_bounds_zero_and_255_are_accepted() {
    var pod =
        pod()
            .volume(volume("a").withNewIscsi().withTargetPortal("p").withIqn("iqn.a").withLun(0).endIscsi().build())
            .volume(volume("b").withNewIscsi().withTargetPortal("p").withIqn("iqn.b").withLun(255).endIscsi().build());

    assertEquals(
        List.of(new Volume.Iscsi("p", "iqn.a", 0, false), new Volume.Iscsi("p", "iqn.b", 255, false)),
        PodAdapter.toPodInfo(pod.build()).volumes());
  }

  @Test
  void an_inline_csi_volume_is_read_with_its_driver_name_and_read_only_flag() {
    var pod = pod()
        .volume(volume("secrets").withNewCsi().withDriver("secrets-store.csi.k8s.io").withReadOnly(true).endCsi().build())
        .volume(volume("scratch").withNewCsi().withDriver("inline.csi.example.com").endCsi().build());

    assertEquals(
        List.of(
            new Volume.Csi("secrets-store.csi.k8s.io", "secrets", true),
            new Volume.Csi("inline.csi.example.com", "scratch", false)),
        PodAdapter.toPodInfo(pod.build()).volumes());
  }

  @Test
  void an_inline_csi_volume_without_a_driver_is_malformed() {
    var pod = pod().volume(volume("scratch").withNewCsi().endCsi().build()).build();

    var e = org.junit.jupiter.api.Assertions.assertThrows(
        io.kubesched.api.MalformedObjectException.class, () -> PodAdapter.toPodInfo(pod));
    assertEquals("spec.volumes[scratch].csi.driver", e.field());
  }
}
