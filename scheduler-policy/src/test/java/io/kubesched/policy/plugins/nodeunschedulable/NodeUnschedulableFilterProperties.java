package io.kubesched.policy.plugins.nodeunschedulable;

import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import io.kubesched.api.Toleration;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.plugins.FilterFixtures;
import io.kubesched.policy.plugins.tainttoleration.TaintTolerationFilter;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class NodeUnschedulableFilterProperties {

  private final NodeUnschedulableFilter filter = new NodeUnschedulableFilter();
  private final TaintTolerationFilter taintFilter = new TaintTolerationFilter();

  @Property
  @Label("a cordon is passed exactly as the taint node.kubernetes.io/unschedulable:NoSchedule would be")
  void aCordonActsAsItsTaint(
      @ForAll("tolerationLists") List<Toleration> tolerations, @ForAll boolean cordoned) {
    PodInfo pod = pod().tolerations(tolerations).build();
    NodeInfo node = node("n").unschedulable(cordoned).build();
    var taint = new Taint(NodeUnschedulableFilter.UNSCHEDULABLE_TAINT_KEY, "", TaintEffect.NO_SCHEDULE);
    NodeInfo tainted = node("n").taints(cordoned ? List.of(taint) : List.of()).build();

    var result = filter.filter(pod, node);

    assertEquals(taintFilter.filter(pod, tainted).fits(), result.fits());
    if (!result.fits()) {
      assertEquals(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, result.code());
    }
    Statistics.label("case").collect(!cordoned ? "schedulable" : result.fits() ? "tolerated" : "rejected");
    Statistics.label("case")
        .coverage(
            c -> {
              c.check("schedulable").count(n -> n > 0);
              c.check("tolerated").count(n -> n > 0);
              c.check("rejected").count(n -> n > 0);
            });
  }

  @Property
  @Label("only the cordon and the pod's tolerations decide: other node properties never do")
  void onlyTheCordonAndTolerationsMatter(@ForAll("pods") PodInfo pod, @ForAll("nodes") NodeInfo node) {
    var bare = node("other").unschedulable(node.unschedulable()).build();

    assertEquals(filter.filter(pod, bare).fits(), filter.filter(pod, node).fits());
    Statistics.label("fits").collect(filter.filter(pod, node).fits());
    Statistics.label("fits").coverage(c -> {
      c.check(true).count(n -> n > 0);
      c.check(false).count(n -> n > 0);
    });
  }

  @Provide
  Arbitrary<List<Toleration>> tolerationLists() {
    return FilterFixtures.tolerations().list().ofMaxSize(2);
  }

  @Provide
  Arbitrary<PodInfo> pods() {
    return FilterFixtures.pods();
  }

  @Provide
  Arbitrary<NodeInfo> nodes() {
    return FilterFixtures.nodes();
  }
}
