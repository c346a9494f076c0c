package io.kubesched.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

class ResourcesProperties {

  private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);

  @Property
  @Label("plus is commutative")
  void plusIsCommutative(@ForAll("resources") Resources a, @ForAll("resources") Resources b) {
    assertEquals(a.plus(b), b.plus(a));
  }

  @Property
  @Label("plus is associative, saturation included")
  void plusIsAssociative(
      @ForAll("resources") Resources a, @ForAll("resources") Resources b, @ForAll("resources") Resources c) {
    assertEquals(a.plus(b).plus(c), a.plus(b.plus(c)));
  }

  @Property
  @Label("ZERO is the identity of plus")
  void zeroIsIdentity(@ForAll("resources") Resources a) {
    assertEquals(a, a.plus(Resources.ZERO));
    assertEquals(a, Resources.ZERO.plus(a));
  }

  @Property
  @Label("max is commutative")
  void maxIsCommutative(@ForAll("resources") Resources a, @ForAll("resources") Resources b) {
    assertEquals(a.max(b), b.max(a));
  }

  @Property
  @Label("max is associative")
  void maxIsAssociative(
      @ForAll("resources") Resources a, @ForAll("resources") Resources b, @ForAll("resources") Resources c) {
    assertEquals(a.max(b).max(c), a.max(b.max(c)));
  }

  @Property
  @Label("max of a resource with itself is itself, and ZERO is its identity")
  void maxIsIdempotentWithZeroIdentity(@ForAll("resources") Resources a) {
    assertEquals(a, a.max(a));
    assertEquals(a, a.max(Resources.ZERO));
  }

  @Property
  @Label("plus is the exact sum of each resource, capped at Long.MAX_VALUE")
  void plusIsTheSaturatedExactSum(@ForAll("resources") Resources a, @ForAll("resources") Resources b) {
    var sum = a.plus(b);

    assertEquals(saturatedSum(a.milliCpu(), b.milliCpu()), sum.milliCpu());
    assertEquals(saturatedSum(a.memory(), b.memory()), sum.memory());
    assertEquals(saturatedSum(a.ephemeralStorage(), b.ephemeralStorage()), sum.ephemeralStorage());
    assertEquals(saturatedSum(a.pods(), b.pods()), sum.pods());
    var names = new TreeSet<>(a.extended().keySet());
    names.addAll(b.extended().keySet());
    for (var name : names) {
      assertEquals(saturatedSum(a.extended(name), b.extended(name)), sum.extended(name), name);
    }
    assertEquals(names, sum.extended().keySet());

    Statistics.label("saturates")
        .collect(
            sum.milliCpu() == Long.MAX_VALUE
                || sum.memory() == Long.MAX_VALUE
                || sum.ephemeralStorage() == Long.MAX_VALUE
                || sum.pods() == Long.MAX_VALUE);
    Statistics.label("saturates").coverage(c -> c.check(true).percentage(p -> p > 5));
  }

  @Property
  @Label("max is the larger amount of each resource")
  void maxIsTheLargerAmount(@ForAll("resources") Resources a, @ForAll("resources") Resources b) {
    var max = a.max(b);

    assertEquals(larger(a.milliCpu(), b.milliCpu()), max.milliCpu());
    assertEquals(larger(a.memory(), b.memory()), max.memory());
    assertEquals(larger(a.ephemeralStorage(), b.ephemeralStorage()), max.ephemeralStorage());
    assertEquals(larger(a.pods(), b.pods()), max.pods());
    var names = new TreeSet<>(a.extended().keySet());
    names.addAll(b.extended().keySet());
    for (var name : names) {
      assertEquals(larger(a.extended(name), b.extended(name)), max.extended(name), name);
    }
  }

  @Property
  @Label("the sum is at least the max, which is at least each operand")
  void sumDominatesMax(@ForAll("resources") Resources a, @ForAll("resources") Resources b) {
    var sum = a.plus(b);
    var max = a.max(b);

    assertEquals(sum, sum.max(max));
    assertEquals(max, max.max(a));
    assertEquals(max, max.max(b));
  }

  private static long saturatedSum(long a, long b) {
    var exact = BigInteger.valueOf(a).add(BigInteger.valueOf(b));
    return exact.min(MAX).longValueExact();
  }

  private static long larger(long a, long b) {
    return a >= b ? a : b;
  }

  @Provide
  Arbitrary<Resources> resources() {
    var extended =
        Arbitraries.maps(
                Arbitraries.of("nvidia.com/gpu", "hugepages-2Mi", "example.com/fpga", "attachable-volumes-x"),
                amounts())
            .ofMaxSize(3);
    return Combinators.combine(amounts(), amounts(), amounts(), amounts(), extended)
        .as(Resources::new);
  }

  /**
   * Small amounts, any amount, and amounts near the top, so that sums both fit and saturate. The boundary
   * values are drawn on purpose instead of as edge cases, which would outnumber the tries.
   */
  static Arbitrary<Long> amounts() {
    return Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.longs().between(0, 100_000)),
            Tuple.of(2, Arbitraries.longs().between(0, Long.MAX_VALUE)),
            Tuple.of(1, Arbitraries.longs().between(Long.MAX_VALUE - 1_000, Long.MAX_VALUE)),
            Tuple.of(1, Arbitraries.of(0L, 1L, Long.MAX_VALUE)))
        .withoutEdgeCases();
  }
}
