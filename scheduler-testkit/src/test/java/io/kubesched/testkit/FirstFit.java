package io.kubesched.testkit;

import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * A small, correct placement policy for the testkit's own tests: the first node that passes a simplified
 * set of kube-scheduler's filters (cordon, node selector, taints, pod count, resources). Not the library's
 * policy: the testkit must not depend on it.
 */
final class FirstFit {

  private static final Taint CORDON = new Taint("node.kubernetes.io/unschedulable", "", TaintEffect.NO_SCHEDULE);

  private FirstFit() {}

  static Decision find(PodInfo pod, List<NodeInfo> nodes) {
    var reasonsByNode = new LinkedHashMap<String, List<String>>();
    for (var node : nodes) {
      var reasons = reasons(pod, node);
      if (reasons.isEmpty()) {
        return Decision.bind(node.name());
      }
      reasonsByNode.put(node.name(), reasons);
    }
    return Decision.unschedulable(reasonsByNode);
  }

  static boolean fits(PodInfo pod, NodeInfo node) {
    return reasons(pod, node).isEmpty();
  }

  /** @return why {@code pod} does not fit {@code node}, in kube-scheduler's words; empty if it fits */
  static List<String> reasons(PodInfo pod, NodeInfo node) {
    var reasons = new ArrayList<String>();
    if (node.unschedulable() && pod.tolerations().stream().noneMatch(t -> t.tolerates(CORDON))) {
      reasons.add("node(s) were unschedulable");
    }
    if (!pod.nodeSelector().entrySet().stream()
        .allMatch(e -> e.getValue().equals(node.labels().get(e.getKey())))) {
      reasons.add("node(s) didn't match Pod's node affinity/selector");
    }
    node.taints().stream()
        .filter(t -> t.effect() != TaintEffect.PREFER_NO_SCHEDULE)
        .filter(t -> pod.tolerations().stream().noneMatch(tol -> tol.tolerates(t)))
        .findFirst()
        .ifPresent(t -> reasons.add("node(s) had untolerated taint " + t));
    if (node.pods().size() + 1 > node.allocatable().pods()) {
      reasons.add("Too many pods");
    }
    var want = pod.requests();
    var have = node.allocatable();
    var used = node.requested();
    insufficient(reasons, "cpu", want.milliCpu(), have.milliCpu(), used.milliCpu());
    insufficient(reasons, "memory", want.memory(), have.memory(), used.memory());
    insufficient(
        reasons, "ephemeral-storage", want.ephemeralStorage(), have.ephemeralStorage(), used.ephemeralStorage());
    want.extended()
        .forEach((name, amount) -> insufficient(reasons, name, amount, have.extended(name), used.extended(name)));
    return reasons;
  }

  private static void insufficient(
      List<String> reasons, String resource, long wanted, long allocatable, long requested) {
    // Both are non-negative, so the difference cannot overflow.
    if (wanted > 0 && wanted > allocatable - requested) {
      reasons.add("Insufficient " + resource);
    }
  }
}
