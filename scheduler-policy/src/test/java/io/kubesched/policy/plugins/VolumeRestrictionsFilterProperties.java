package io.kubesched.policy.plugins;

import static io.kubesched.policy.plugins.FilterFixtures.nodeWith;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.PodInfo;
import io.kubesched.api.Volume;
import io.kubesched.policy.FilterResult.Code;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class VolumeRestrictionsFilterProperties {

  private final VolumeRestrictionsFilter filter = new VolumeRestrictionsFilter();

  @Property
  @Label("a pod A fits beside a pod B iff B fits beside A")
  void conflictIsSymmetric(@ForAll("volumeLists") List<Volume> a, @ForAll("volumeLists") List<Volume> b) {
    PodInfo podA = pod("a").volumes(a).build();
    PodInfo podB = pod("b").volumes(b).build();

    var result = filter.filter(podA, nodeWith(podB));

    assertEquals(result.fits(), filter.filter(podB, nodeWith(podA)).fits());
    if (!result.fits()) {
      assertEquals(Code.UNSCHEDULABLE, result.code());
    }
    Statistics.label("fits").collect(result.fits());
    Statistics.label("fits")
        .coverage(
            c -> {
              c.check(true).percentage(p -> p > 10);
              c.check(false).percentage(p -> p > 10);
            });
  }

  @Property
  @Label("a pod fits a node iff it fits beside each of the node's pods alone")
  void conflictsArePairwise(
      @ForAll("volumeLists") List<Volume> wanted,
      @ForAll("volumeLists") List<Volume> first,
      @ForAll("volumeLists") List<Volume> second) {
    PodInfo pod = pod("p").volumes(wanted).build();
    PodInfo a = pod("a").volumes(first).build();
    PodInfo b = pod("b").volumes(second).build();

    boolean fits = filter.filter(pod, nodeWith(a, b)).fits();

    assertEquals(filter.filter(pod, nodeWith(a)).fits() && filter.filter(pod, nodeWith(b)).fits(), fits);
    Statistics.label("fits").collect(fits);
    Statistics.label("fits").coverage(c -> {
      c.check(true).count(n -> n > 0);
      c.check(false).count(n -> n > 0);
    });
  }

  @Property
  @Label("when every mount is read-only only EBS volumes can conflict, and then exactly on equal ids")
  void readOnlyMountsConflictOnlyOnEbs(
      @ForAll("volumeLists") List<Volume> wanted, @ForAll("volumeLists") List<Volume> existing) {
    var readOnlyWanted = wanted.stream().map(VolumeRestrictionsFilterProperties::readOnly).toList();
    var readOnlyExisting = existing.stream().map(VolumeRestrictionsFilterProperties::readOnly).toList();

    var node = nodeWith(pod("a").volumes(readOnlyExisting).build());

    boolean fits = filter.filter(pod("p").volumes(readOnlyWanted).build(), node).fits();

    boolean sharedEbs = !Collections.disjoint(ebsIds(readOnlyWanted), ebsIds(readOnlyExisting));
    assertEquals(!sharedEbs, fits);
    Statistics.label("shared EBS volume").collect(sharedEbs);
    Statistics.label("shared EBS volume").coverage(c -> {
      c.check(true).count(n -> n > 0);
      c.check(false).count(n -> n > 0);
    });
  }

  @Property
  @Label("a pod without volumes fits every node, and so does every pod on a node without volumes")
  void noVolumesNoConflict(@ForAll("volumeLists") List<Volume> volumes) {
    assertTrue(filter.filter(pod("p").build(), nodeWith(pod("a").volumes(volumes).build())).fits());
    assertTrue(filter.filter(pod("p").volumes(volumes).build(), nodeWith(pod("a").build())).fits());
  }

  private static Set<String> ebsIds(List<Volume> volumes) {
    return volumes.stream()
        .filter(Volume.AwsElasticBlockStore.class::isInstance)
        .map(v -> ((Volume.AwsElasticBlockStore) v).volumeId())
        .collect(Collectors.toSet());
  }

  private static Volume readOnly(Volume volume) {
    if (volume instanceof Volume.GcePersistentDisk gce) {
      return new Volume.GcePersistentDisk(gce.pdName(), true);
    }
    if (volume instanceof Volume.AwsElasticBlockStore ebs) {
      return new Volume.AwsElasticBlockStore(ebs.volumeId(), true);
    }
    if (volume instanceof Volume.Rbd rbd) {
      return new Volume.Rbd(rbd.monitors(), rbd.pool(), rbd.image(), true);
    }
    var iscsi = (Volume.Iscsi) volume;
    return new Volume.Iscsi(iscsi.targetPortal(), iscsi.iqn(), iscsi.lun(), true);
  }

  @Provide
  Arbitrary<List<Volume>> volumeLists() {
    return FilterFixtures.volumes().list().ofMinSize(1).ofMaxSize(3);
  }
}
