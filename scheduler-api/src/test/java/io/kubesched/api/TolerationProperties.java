package io.kubesched.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class TolerationProperties {

  @Property
  @Label("tolerates agrees with Kubernetes' ToleratesTaint")
  void toleratesAgreesWithKubernetes(
      @ForAll("tolerations") Toleration toleration, @ForAll("taints") Taint taint) {
    boolean expected = toleratesTaint(toleration, taint);

    assertEquals(expected, toleration.tolerates(taint));

    Statistics.label("tolerated").collect(expected);
    Statistics.label("tolerated").coverage(c -> c.check(true).percentage(p -> p > 10));
  }

  @Property
  @Label("an empty key with Exists and no effect tolerates every taint")
  void wildcardToleratesEverything(@ForAll("taints") Taint taint) {
    assertTrue(new Toleration("", Toleration.Operator.EXISTS, "", null).tolerates(taint));
  }

  /**
   * Kubernetes' {@code (*Toleration).ToleratesTaint} from k8s.io/api/core/v1/toleration.go, transcribed
   * with the API's strings: an empty effect or key is a wildcard, an empty operator means Equal.
   */
  private static boolean toleratesTaint(Toleration toleration, Taint taint) {
    String tolerationEffect = toleration.effect() == null ? "" : toleration.effect().apiName();
    if (tolerationEffect.length() > 0 && !tolerationEffect.equals(taint.effect().apiName())) {
      return false;
    }
    if (toleration.key().length() > 0 && !toleration.key().equals(taint.key())) {
      return false;
    }
    switch (toleration.operator()) {
      case EQUAL:
        return toleration.value().equals(taint.value());
      case EXISTS:
        return true;
      default:
        return false;
    }
  }

  @Provide
  Arbitrary<Toleration> tolerations() {
    var effects = Arbitraries.of(TaintEffect.class).injectNull(0.4);
    return Combinators.combine(
            Arbitraries.of("", "a", "b"),
            Arbitraries.of(Toleration.Operator.class),
            Arbitraries.of("", "x", "y"),
            effects)
        .as(Toleration::new);
  }

  @Provide
  Arbitrary<Taint> taints() {
    return Combinators.combine(
            Arbitraries.of("a", "b", "c"), Arbitraries.of("", "x", "y"), Arbitraries.of(TaintEffect.class))
        .as(Taint::new);
  }
}
