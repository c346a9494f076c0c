package io.kubesched.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ResourcesTest {

  private static final long MAX = Long.MAX_VALUE;

  @Test
  void adding_zero_changes_nothing() {
    var resources = new Resources(500, 1 << 30, 10, 1, Map.of("nvidia.com/gpu", 2L));

    assertEquals(resources, resources.plus(Resources.ZERO));
    assertEquals(resources, Resources.ZERO.plus(resources));
  }

  @Test
  void plus_adds_each_resource_and_extended_resources_present_on_one_side_only() {
    var a = new Resources(500, 1000, 7, 1, Map.of("nvidia.com/gpu", 1L, "hugepages-2Mi", 2048L));
    var b = new Resources(250, 24, 3, 2, Map.of("nvidia.com/gpu", 2L, "example.com/fpga", 5L));

    var sum = a.plus(b);

    assertEquals(
        new Resources(
            750,
            1024,
            10,
            3,
            Map.of("nvidia.com/gpu", 3L, "hugepages-2Mi", 2048L, "example.com/fpga", 5L)),
        sum);
  }

  @Test
  void max_takes_the_larger_amount_of_each_resource() {
    var a = new Resources(500, 10, 7, 1, Map.of("nvidia.com/gpu", 1L, "hugepages-2Mi", 2048L));
    var b = new Resources(250, 24, 9, 0, Map.of("nvidia.com/gpu", 2L));

    assertEquals(
        new Resources(500, 24, 9, 1, Map.of("nvidia.com/gpu", 2L, "hugepages-2Mi", 2048L)), a.max(b));
  }

  @Test
  void plus_saturates_at_long_max_instead_of_overflowing() {
    var huge = new Resources(MAX, MAX - 1, MAX, 1, Map.of("nvidia.com/gpu", MAX));
    var some = new Resources(1, 1, MAX, 1, Map.of("nvidia.com/gpu", 3L));

    var sum = huge.plus(some);

    assertEquals(new Resources(MAX, MAX, MAX, 2, Map.of("nvidia.com/gpu", MAX)), sum);
  }

  @Test
  void plus_saturates_on_an_extended_resource_as_well() {
    var a = new Resources(0, 0, 0, 0, Map.of("example.com/x", MAX / 2 + 1));

    assertEquals(MAX, a.plus(a).extended("example.com/x"));
  }

  static Stream<Arguments> negativeAmounts() {
    return Stream.of(
        Arguments.of("a negative milliCpu", (Supplier<Resources>) () -> new Resources(-1, 0, 0, 0, Map.of())),
        Arguments.of("a negative memory", (Supplier<Resources>) () -> new Resources(0, -1, 0, 0, Map.of())),
        Arguments.of(
            "a negative ephemeral storage",
            (Supplier<Resources>) () -> new Resources(0, 0, -1, 0, Map.of())),
        Arguments.of("a negative pod count", (Supplier<Resources>) () -> new Resources(0, 0, 0, -1, Map.of())),
        Arguments.of(
            "a negative extended resource",
            (Supplier<Resources>) () -> new Resources(0, 0, 0, 0, Map.of("nvidia.com/gpu", -1L))),
        Arguments.of(
            "Long.MIN_VALUE memory", (Supplier<Resources>) () -> Resources.of(0, Long.MIN_VALUE)));
  }

  @ParameterizedTest(name = "{0} is rejected")
  @MethodSource("negativeAmounts")
  void negative_amounts_are_rejected(String description, Supplier<Resources> construction) {
    assertThrows(IllegalArgumentException.class, construction::get);
  }

  @Test
  void the_rejection_of_a_negative_extended_resource_names_it() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Resources(0, 0, 0, 0, Map.of("nvidia.com/gpu", -3L)));

    assertTrue(e.getMessage().contains("nvidia.com/gpu"), e.getMessage());
    assertTrue(e.getMessage().contains("-3"), e.getMessage());
  }

  @Test
  void zero_extended_entries_are_dropped() {
    var resources = new Resources(0, 0, 0, 0, Map.of("nvidia.com/gpu", 0L, "hugepages-2Mi", 4L));

    assertEquals(Map.of("hugepages-2Mi", 4L), resources.extended());
    assertEquals(0, resources.extended("nvidia.com/gpu"));
  }

  @Test
  void resources_differing_only_by_a_zero_extended_entry_are_equal() {
    assertEquals(Resources.ZERO, new Resources(0, 0, 0, 0, Map.of("nvidia.com/gpu", 0L)));
  }

  @Test
  void an_absent_extended_resource_is_zero() {
    assertEquals(0, Resources.of(1, 2).extended("nvidia.com/gpu"));
  }

  @Test
  void the_extended_map_is_copied_on_construction() {
    var source = new HashMap<String, Long>();
    source.put("nvidia.com/gpu", 1L);
    var resources = new Resources(0, 0, 0, 0, source);

    source.put("nvidia.com/gpu", 5L);
    source.put("example.com/fpga", 2L);

    assertEquals(Map.of("nvidia.com/gpu", 1L), resources.extended());
  }

  @Test
  void the_extended_map_cannot_be_modified() {
    var resources = new Resources(0, 0, 0, 0, Map.of("nvidia.com/gpu", 1L));

    assertThrows(
        UnsupportedOperationException.class, () -> resources.extended().put("nvidia.com/gpu", 9L));
  }

  @Test
  void of_sets_cpu_and_memory_only() {
    assertEquals(new Resources(100, 200, 0, 0, Map.of()), Resources.of(100, 200));
  }
}
