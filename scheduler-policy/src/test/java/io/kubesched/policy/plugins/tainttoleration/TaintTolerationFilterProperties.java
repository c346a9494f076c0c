package io.kubesched.policy.plugins.tainttoleration;

import static io.kubesched.policy.plugins.FilterFixtures.concat;
import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import io.kubesched.api.Toleration;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.plugins.FilterFixtures;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class TaintTolerationFilterProperties {

  private final TaintTolerationFilter filter = new TaintTolerationFilter();

  @Property
  @Label("a pod fits iff each NoSchedule and NoExecute taint is tolerated; the reason is the first not")
  void fitsIffEveryHardTaintIsTolerated(
      @ForAll("taintLists") List<Taint> taints, @ForAll("tolerationLists") List<Toleration> tolerations) {
    PodInfo pod = pod().tolerations(tolerations).build();
    NodeInfo node = node("n").taints(taints).build();

    var untolerated =
        taints.stream()
            .filter(t -> t.effect() != TaintEffect.PREFER_NO_SCHEDULE)
            .filter(t -> tolerations.stream().noneMatch(toleration -> toleration.tolerates(t)))
            .toList();
    var result = filter.filter(pod, node);

    assertEquals(untolerated.isEmpty(), result.fits());
    if (!untolerated.isEmpty()) {
      assertEquals(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, result.code());
      assertEquals(List.of(new Reason.UntoleratedTaint(untolerated.get(0))), FilterFixtures.reasons(result));
    }
    Statistics.label("fits").collect(result.fits());
    Statistics.label("fits")
        .coverage(
            c -> {
              c.check(true).percentage(p -> p > 10);
              c.check(false).percentage(p -> p > 10);
            });
    Statistics.label("some taint tolerated, another not")
        .collect(untolerated.size() > 0 && untolerated.size() < taints.size());
    Statistics.label("some taint tolerated, another not").coverage(c -> c.check(true).count(n -> n > 0));
  }

  @Property
  @Label("PreferNoSchedule taints never change the verdict")
  void softTaintsDoNotMatter(
      @ForAll("taintLists") List<Taint> taints,
      @ForAll("tolerationLists") List<Toleration> tolerations,
      @ForAll("taintLists") List<Taint> more) {
    var soft = more.stream().map(t -> new Taint(t.key(), t.value(), TaintEffect.PREFER_NO_SCHEDULE)).toList();
    PodInfo pod = pod().tolerations(tolerations).build();

    boolean fits = filter.filter(pod, node("n").taints(taints).build()).fits();

    assertEquals(fits, filter.filter(pod, node("n").taints(concat(soft, taints)).build()).fits());
    Statistics.label("fits").collect(fits);
    Statistics.label("fits").coverage(c -> {
      c.check(true).count(n -> n > 0);
      c.check(false).count(n -> n > 0);
    });
  }

  @Property
  @Label("more tolerations never reject a node that fewer tolerations passed")
  void moreTolerationsNeverHurt(
      @ForAll("taintLists") List<Taint> taints,
      @ForAll("tolerationLists") List<Toleration> tolerations,
      @ForAll("tolerationLists") List<Toleration> more) {
    NodeInfo node = node("n").taints(taints).build();

    boolean before = filter.filter(pod().tolerations(tolerations).build(), node).fits();
    boolean after = filter.filter(pod().tolerations(concat(tolerations, more)).build(), node).fits();

    assertTrue(!before || after);
    Statistics.label("more tolerations let the pod in").collect(!before && after);
    Statistics.label("more tolerations let the pod in").coverage(c -> {
      c.check(true).count(n -> n > 0);
      c.check(false).count(n -> n > 0);
    });
  }

  @Provide
  Arbitrary<List<Taint>> taintLists() {
    return FilterFixtures.taints().list().ofMaxSize(3);
  }

  @Provide
  Arbitrary<List<Toleration>> tolerationLists() {
    return FilterFixtures.tolerations().list().ofMaxSize(2);
  }
}
