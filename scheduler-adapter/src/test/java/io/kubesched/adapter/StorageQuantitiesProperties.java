package io.kubesched.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacityBuilder;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** {@link StorageAdapter}: storage quantities become whole bytes, rounded up, never below the amount. */
class StorageQuantitiesProperties {

  private static final Map<String, BigDecimal> SUFFIXES =
      Map.of(
          "", BigDecimal.ONE,
          "m", new BigDecimal("0.001"),
          "k", new BigDecimal("1000"),
          "Ki", new BigDecimal(1024),
          "Mi", new BigDecimal(1024 * 1024),
          "G", new BigDecimal("1000000000"),
          "Gi", new BigDecimal(1L << 30));

  @Provide
  Arbitrary<String> quantities() {
    var mantissas =
        Arbitraries.integers().between(0, 999_999).flatMap(
            whole -> Arbitraries.integers().between(0, 999).map(frac -> frac == 0 ? "" + whole : whole + "." + frac));
    return mantissas.flatMap(m -> Arbitraries.of(SUFFIXES.keySet()).map(s -> m + s));
  }

  @Property
  void a_claims_request_and_a_capacity_are_the_amount_rounded_up_to_whole_bytes(@ForAll("quantities") String text) {
    var suffix = text.replaceAll("^[0-9.]+", "");
    var exact = new BigDecimal(text.substring(0, text.length() - suffix.length())).multiply(SUFFIXES.get(suffix));
    long expected = exact.setScale(0, RoundingMode.CEILING).longValueExact();
    boolean fractional = exact.stripTrailingZeros().scale() > 0;
    Statistics.label("rounding").collect(fractional ? "rounded up" : "whole");
    Statistics.label("rounding").coverage(c -> {
      c.check("rounded up").count(n -> n > 0);
      c.check("whole").count(n -> n > 0);
    });

    var claim = StorageAdapter.claim(new PersistentVolumeClaimBuilder().withNewMetadata().withName("c").endMetadata()
        .withNewSpec().withNewResources().withRequests(Map.of("storage", new Quantity(text))).endResources().endSpec()
        .build());
    var capacity = StorageAdapter.capacity(new CSIStorageCapacityBuilder().withNewMetadata().withName("c").endMetadata()
        .withCapacity(new Quantity(text)).build());

    assertEquals(expected, claim.requestedBytes());
    assertEquals(expected, capacity.capacityBytes());
    assertTrue(BigDecimal.valueOf(claim.requestedBytes()).compareTo(exact) >= 0);
    assertTrue(BigDecimal.valueOf(claim.requestedBytes()).subtract(exact).compareTo(BigDecimal.ONE) < 0);
  }
}
