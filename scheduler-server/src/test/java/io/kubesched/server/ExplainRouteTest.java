package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.facade.Controller;
import io.kubesched.facade.PodExplanation;
import io.kubesched.policy.Policy;
import io.kubesched.policy.plugins.Filters;
import io.kubesched.policy.plugins.Scorers;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/** {@link ExplainRoute} on a stub controller: the text and JSON answers, and every refusal. */
class ExplainRouteTest {

  private static final Policy POLICY =
      Policy.builder()
          .filter(Filters.nodeUnschedulable())
          .filter(Filters.resourcesFit())
          .scorer(Scorers.leastAllocated(), 1)
          .seed(42)
          .build();
  private static final List<NodeInfo> NODES =
      List.of(
          NodeInfo.builder("big").allocatable(4000, 8L << 30, 110).build(),
          NodeInfo.builder("cordoned").allocatable(4000, 8L << 30, 110).unschedulable(true).build(),
          NodeInfo.builder("small").allocatable(1000, 8L << 30, 110).build());

  private static PodInfo pod(String name, long milliCpu) {
    return PodInfo.builder("shop", name).uid("uid-" + name).requests(milliCpu, 1L << 20).build();
  }

  private static Route.Request request(Map<String, List<String>> query, Optional<String> accept) {
    return new Route.Request(ExplainRoute.PATH, query, accept);
  }

  private static Route.Request text(String pod) {
    return request(Map.of("pod", List.of(pod)), Optional.empty());
  }

  private static Route.Request json(String pod) {
    return request(Map.of("pod", List.of(pod)), Optional.of("application/json"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> parse(String body) {
    return new KubernetesSerialization().unmarshal(body, Map.class);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    return (Map<String, Object>) value;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object value) {
    return (List<Object>) value;
  }

  private static Route route(BiFunction<String, String, Optional<PodExplanation>> explain) {
    return ExplainRoute.of(() -> new StubController(explain));
  }

  private static PodExplanation.Single single(PodInfo pod) {
    return new PodExplanation.Single(pod.key(), "kubesched", List.of(), POLICY.explain(pod, NODES));
  }

  @Test
  void a_pod_is_the_librarys_table_in_text_and_its_nodes_plugins_and_scores_in_json() {
    var explained = single(pod("web-1", 500));
    var route = route((namespace, name) -> namespace.equals("shop") && name.equals("web-1")
        ? Optional.of(explained) : Optional.empty());

    var text = route.get(text("shop/web-1"));
    assertEquals(200, text.status());
    assertEquals("text/plain; charset=utf-8", text.contentType());
    assertEquals(explained.toTable(), text.body());
    assertTrue(text.body().startsWith("pod shop/web-1 (profile kubesched)\npod shop/web-1: bind to big\n"),
        text.body());

    var answer = route.get(json("shop/web-1"));
    assertEquals(200, answer.status());
    assertEquals("application/json", answer.contentType());
    var body = parse(answer.body());
    assertEquals("shop/web-1", body.get("pod"));
    assertEquals("kubesched", body.get("profile"));
    assertEquals("pod", body.get("explained"));
    assertEquals("big", body.get("chosenNode"));
    assertEquals("", body.get("message"));
    assertEquals(3, ((Number) body.get("nodeCount")).intValue());
    var nodes = list(body.get("nodes"));
    var big = map(nodes.stream().filter(n -> map(n).get("node").equals("big")).findFirst().orElseThrow());
    assertEquals(true, big.get("feasible"));
    assertEquals(
        List.of(
            Map.of("plugin", "NodeUnschedulable", "status", "Success", "reasons", List.of()),
            Map.of("plugin", "NodeResourcesFit", "status", "Success", "reasons", List.of())),
        big.get("filters"));
    var scores = map(big.get("scores"));
    assertEquals(List.of("NodeResourcesLeastAllocated"), List.copyOf(scores.keySet()));
    assertEquals(((Number) scores.get("NodeResourcesLeastAllocated")).longValue(),
        ((Number) big.get("total")).longValue(), "weight 1");
    var cordoned = map(nodes.stream().filter(n -> map(n).get("node").equals("cordoned")).findFirst().orElseThrow());
    assertEquals(false, cordoned.get("feasible"));
    var rejection = map(list(cordoned.get("filters")).get(0));
    assertEquals("UnschedulableAndUnresolvable", rejection.get("status"));
    assertEquals(List.of("node(s) were unschedulable"), rejection.get("reasons"));
    assertNull(cordoned.get("total"), "not scored");
    assertNull(body.get("preemption"));
  }

  @Test
  void an_unschedulable_pod_has_no_chosen_node_and_the_decisions_message() {
    var explained = single(pod("huge", 8000));
    var body = parse(route((ns, n) -> Optional.of(explained)).get(json("shop/huge")).body());

    assertNull(body.get("chosenNode"));
    assertEquals(
        "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu.", body.get("message"));
    assertTrue(list(body.get("nodes")).stream().noneMatch(n -> (Boolean) map(n).get("feasible")));
  }

  @Test
  void a_group_member_shows_the_groups_trial_and_each_members_explanation() {
    var ref = new PodGroupRef(PodGroupRef.Source.COSCHEDULING, "shop", "gang");
    var members = List.of(pod("a", 500), pod("b", 500));
    var group = POLICY.explainGroup(PodGroup.of(ref, 2), members, 0, ClusterSnapshot.of(NODES));
    var explained = new PodExplanation.Group("shop/a", "kubesched", List.of("a note"), group);
    var route = route((ns, n) -> Optional.of(explained));

    assertEquals(explained.toTable(), route.get(text("shop/a")).body());
    var body = parse(route.get(json("shop/a")).body());
    assertEquals("group", body.get("explained"));
    assertEquals(List.of("a note"), body.get("notes"));
    var trial = map(body.get("group"));
    assertEquals("shop/gang", trial.get("group"));
    assertEquals(true, trial.get("placed"));
    assertEquals(2, ((Number) trial.get("minCount")).intValue());
    var first = map(list(trial.get("members")).get(0));
    assertEquals("shop/a", first.get("pod"));
    assertEquals("fits", first.get("outcome"));
    assertEquals(first.get("node"), map(first.get("explanation")).get("chosenNode"));
    assertEquals(3, list(map(first.get("explanation")).get("nodes")).size());
  }

  @Test
  void a_pod_that_cannot_be_explained_says_why_in_both_forms() {
    var explained = new PodExplanation.Unexplained(
        "shop/web-1", "plain", List.of(), "the policy of profile plain is a plain FinderFunc");
    var route = route((ns, n) -> Optional.of(explained));

    var text = route.get(text("shop/web-1"));
    assertEquals(200, text.status());
    assertEquals(
        "pod shop/web-1 (profile plain)\nnot explained: the policy of profile plain is a plain FinderFunc\n",
        text.body());
    var body = parse(route.get(json("shop/web-1")).body());
    assertEquals("no", body.get("explained"));
    assertEquals("the policy of profile plain is a plain FinderFunc", body.get("reason"));
    assertFalse(body.containsKey("nodes"));
  }

  @Test
  void a_missing_or_malformed_pod_is_400_an_unknown_one_404_in_the_form_asked_for() {
    var route = route((ns, n) -> Optional.empty());

    var missing = route.get(request(Map.of(), Optional.empty()));
    assertEquals(400, missing.status());
    assertEquals("missing query parameter pod: ask for /debug/explain?pod=NAMESPACE/NAME\n", missing.body());
    var malformed = route.get(json("web-1"));
    assertEquals(400, malformed.status());
    assertEquals("application/json", malformed.contentType());
    assertEquals(
        "pod='web-1' is refused: it must be NAMESPACE/NAME, e.g. pod=default/web-1", parse(malformed.body()).get("error"));
    var unknown = route.get(text("shop/gone"));
    assertEquals(404, unknown.status());
    assertTrue(unknown.body().startsWith("no pod shop/gone that this scheduler schedules"), unknown.body());
  }

  @Test
  void before_the_scheduler_runs_it_is_503_and_a_failure_is_500_without_a_stack_trace() {
    Route notYet = ExplainRoute.of(() -> {
      throw new IllegalStateException("the server is not started");
    });
    var early = notYet.get(text("shop/web-1"));
    assertEquals(503, early.status());
    assertEquals("the scheduler has not listed the cluster yet; try again once /readyz answers 200\n", early.body());

    var failing = route((ns, n) -> {
      throw new NullPointerException("a bug");
    }).get(text("shop/web-1"));
    assertEquals(500, failing.status());
    assertEquals("explaining pod shop/web-1 failed: NullPointerException\n", failing.body());
  }

  @Test
  void json_is_chosen_only_when_accept_lists_it_with_a_quality_above_zero() {
    assertFalse(ExplainRoute.wantsJson(Optional.empty()));
    assertFalse(ExplainRoute.wantsJson(Optional.of("*/*")), "curl's default");
    assertFalse(ExplainRoute.wantsJson(Optional.of("text/plain")));
    assertFalse(ExplainRoute.wantsJson(Optional.of("application/json;q=0")));
    assertFalse(ExplainRoute.wantsJson(Optional.of("application/json; q=zero")));
    assertTrue(ExplainRoute.wantsJson(Optional.of("application/json")));
    assertTrue(ExplainRoute.wantsJson(Optional.of("text/html, Application/JSON ; q=0.5")));
  }

  /** A controller whose only working method is {@link #explain}. */
  private record StubController(BiFunction<String, String, Optional<PodExplanation>> explain) implements Controller {

    @Override
    public Optional<PodExplanation> explain(String namespace, String name) {
      return explain.apply(namespace, name);
    }

    @Override
    public void start() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void run() {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean isRunning() {
      return true;
    }

    @Override
    public boolean isLeader() {
      return true;
    }

    @Override
    public void setLeading(boolean leading) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void replacePolicy(String schedulerName, FinderFunc finder) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<NodeInfo> nodes() {
      return NODES;
    }

    @Override
    public void close() {}
  }
}
