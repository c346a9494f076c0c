package io.kubesched.policy.plugins.volumebinding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.policy.plugins.args.ShapePoint;
import io.kubesched.policy.plugins.volumebinding.VolumeBindingScorer.StorageResource;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** kube's {@code TestScore} (scorer_test.go): the class resources of a node to its score. */
class VolumeBindingScorerTest {

  private static List<StorageResource> hddSsd(long hdd, long ssd) {
    return List.of(new StorageResource(hdd, 100), new StorageResource(ssd, 100));
  }

  @Test
  @DisplayName("default shape, single class")
  void defaultShapeSingleClass() {
    var scorer = new VolumeBindingScorer();
    assertEquals(100, scorer.score(List.of(new StorageResource(0, 100))));
    assertEquals(70, scorer.score(List.of(new StorageResource(30, 100))));
    assertEquals(50, scorer.score(List.of(new StorageResource(50, 100))));
    assertEquals(0, scorer.score(List.of(new StorageResource(100, 100))));
  }

  @Test
  @DisplayName("default shape, multiple classes")
  void defaultShapeMultipleClasses() {
    var scorer = new VolumeBindingScorer();
    assertEquals(100, scorer.score(hddSsd(0, 0)));
    assertEquals(85, scorer.score(hddSsd(0, 30)));
    assertEquals(70, scorer.score(hddSsd(30, 30)));
    assertEquals(55, scorer.score(hddSsd(30, 60)));
    assertEquals(50, scorer.score(hddSsd(50, 50)));
    assertEquals(25, scorer.score(hddSsd(50, 100)));
    assertEquals(0, scorer.score(hddSsd(100, 100)));
  }

  @Test
  @DisplayName("custom shape, multiple classes")
  void customShapeMultipleClasses() {
    // kube's shape here is already scaled (scores 0, 30, 50); as VolumeBindingArgs these are 0, 3, 5.
    var scorer = new VolumeBindingScorer(List.of(new ShapePoint(50, 0), new ShapePoint(80, 3), new ShapePoint(100, 5)));
    assertEquals(0, scorer.score(hddSsd(0, 0)));
    assertEquals(0, scorer.score(hddSsd(0, 30)));
    assertEquals(0, scorer.score(hddSsd(30, 30)));
    assertEquals(5, scorer.score(hddSsd(30, 60)));
    assertEquals(25, scorer.score(hddSsd(50, 100)));
    assertEquals(40, scorer.score(hddSsd(90, 90)));
    assertEquals(50, scorer.score(hddSsd(100, 100)));
  }

  @Test
  @DisplayName("no class scores 0; a class without capacity or short of the request scores as full")
  void edges() {
    var scorer = new VolumeBindingScorer();
    assertEquals(0, scorer.score(List.of()));
    assertEquals(0, scorer.score(List.of(new StorageResource(0, 0))));
    assertEquals(0, scorer.score(List.of(new StorageResource(101, 100))));
  }

  @Test
  @DisplayName("the default shape is kube's VolumeBindingArgs default with StorageCapacityScoring on")
  void defaultShape() {
    assertEquals(List.of(new ShapePoint(0, 10), new ShapePoint(100, 0)), new VolumeBindingScorer().shape());
  }

  @Test
  @DisplayName("a shape must be non-empty and strictly increasing in utilization")
  void shapeValidation() {
    assertThrows(IllegalArgumentException.class, () -> new VolumeBindingScorer(List.of()));
    assertThrows(IllegalArgumentException.class, () ->
        new VolumeBindingScorer(List.of(new ShapePoint(50, 1), new ShapePoint(50, 2))));
  }
}
