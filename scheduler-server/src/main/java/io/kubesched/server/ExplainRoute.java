package io.kubesched.server;

import io.kubesched.api.Decision;
import io.kubesched.api.PodInfo;
import io.kubesched.facade.Controller;
import io.kubesched.facade.PodExplanation;
import io.kubesched.policy.Explanation;
import io.kubesched.policy.GroupExplanation;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /debug/explain?pod=NAMESPACE/NAME}: why a pod goes where it goes, or why it is pending, as the
 * scheduler's next attempt of it would see it ({@link Controller#explain}): each node with each filter's
 * verdict, each scorer's score and the total. Text by default, the library's table ({@link
 * PodExplanation#toTable()}); JSON when the {@code Accept} header lists {@code application/json} (the shape is
 * in {@code docs/server.md}, and is kept: fields may be added, none renamed or removed).
 *
 * <p>Answers 200 with the explanation, or with why the pod is not explained (bound, a profile whose policy is a
 * plain function, a group waiting for members); 400 if {@code pod} is missing or not {@code NAMESPACE/NAME};
 * 404 if no unfinished pod has that name or no profile of this server schedules it; 503 before the scheduler
 * has listed the cluster. An error's body is one line, never a stack trace (that goes to the log). Thread-safe:
 * the HTTP threads call it at once; each call computes on its own thread.
 */
final class ExplainRoute implements Route {

  private static final Logger LOG = LoggerFactory.getLogger(ExplainRoute.class);

  /** Where the route is served. */
  static final String PATH = "/debug/explain";

  static final String TEXT = "text/plain; charset=utf-8";
  static final String JSON = "application/json";

  private final Supplier<Controller> controller;

  private ExplainRoute(Supplier<Controller> controller) {
    this.controller = controller;
  }

  /**
   * @param controller the server's controller, asked at each request; it may throw {@link IllegalStateException}
   *     while there is none yet (the route answers 503 then), as {@code SchedulerServer::controller} does
   * @return the route, to serve at {@link #PATH}
   */
  static ExplainRoute of(Supplier<Controller> controller) {
    return new ExplainRoute(Objects.requireNonNull(controller, "controller"));
  }

  @Override
  public Response get(Request request) {
    boolean json = wantsJson(request.accept());
    var parameter = request.parameter("pod");
    if (parameter.isEmpty()) {
      return error(json, 400, "missing query parameter pod: ask for " + PATH + "?pod=NAMESPACE/NAME");
    }
    PodKey pod;
    try {
      pod = PodKey.parse(parameter.get());
    } catch (IllegalArgumentException e) {
      return error(json, 400, e.getMessage());
    }
    Optional<PodExplanation> explained;
    try {
      explained = controller.get().explain(pod.namespace(), pod.name());
    } catch (IllegalStateException notStarted) {
      return error(json, 503, "the scheduler has not listed the cluster yet; try again once /readyz answers 200");
    } catch (RuntimeException e) {
      LOG.warn("Explaining pod {} failed", pod, e);
      return error(json, 500, "explaining pod " + pod + " failed: " + e.getClass().getSimpleName());
    }
    if (explained.isEmpty()) {
      return error(json, 404, "no pod " + pod + " that this scheduler schedules: it does not exist (or has"
          + " finished), or its spec.schedulerName is none of this scheduler's profiles");
    }
    return json
        ? new Response(200, JSON, Json.write(toJson(explained.get())) + "\n")
        : new Response(200, TEXT, explained.get().toTable());
  }

  /**
   * @return whether {@code accept} lists {@code application/json} with a non-zero quality; text is the default
   *     (curl sends {@code *}{@code /*})
   */
  static boolean wantsJson(Optional<String> accept) {
    if (accept.isEmpty()) {
      return false;
    }
    for (var range : accept.get().split(",")) {
      var parts = range.split(";");
      if (!parts[0].trim().toLowerCase(Locale.ROOT).equals(JSON)) {
        continue;
      }
      boolean refused = false;
      for (int i = 1; i < parts.length; i++) {
        var parameter = parts[i].trim().toLowerCase(Locale.ROOT);
        if (parameter.startsWith("q=")) {
          try {
            refused = Double.parseDouble(parameter.substring(2)) <= 0;
          } catch (NumberFormatException e) {
            refused = true;
          }
        }
      }
      if (!refused) {
        return true;
      }
    }
    return false;
  }

  /** @return a one-line error, as text or as JSON {@code {"error": ...}} */
  static Response error(boolean json, int status, String message) {
    return json
        ? new Response(status, JSON, Json.write(Map.of("error", message)) + "\n")
        : new Response(status, TEXT, message + "\n");
  }

  /** The JSON shape of {@code docs/server.md}. */
  static Map<String, Object> toJson(PodExplanation explained) {
    var json = new LinkedHashMap<String, Object>();
    json.put("pod", explained.pod());
    json.put("profile", explained.profile());
    json.put("notes", explained.notes());
    if (explained instanceof PodExplanation.Single single) {
      json.put("explained", "pod");
      json.putAll(explanation(single.explanation()));
    } else if (explained instanceof PodExplanation.Group group) {
      json.put("explained", "group");
      json.put("group", group(group.explanation()));
    } else {
      json.put("explained", "no");
      json.put("reason", ((PodExplanation.Unexplained) explained).reason());
    }
    return json;
  }

  private static Map<String, Object> explanation(Explanation explanation) {
    var json = new LinkedHashMap<String, Object>();
    json.putAll(decision(explanation.decision(), explanation.nodeCount()));
    json.put("nodeCount", explanation.nodeCount());
    var nodes = new ArrayList<Object>();
    for (var node : explanation.nodes()) {
      var entry = new LinkedHashMap<String, Object>();
      entry.put("node", node.node());
      entry.put("feasible", node.feasible());
      var filters = new ArrayList<Object>();
      for (var outcome : node.filters()) {
        var filter = new LinkedHashMap<String, Object>();
        filter.put("plugin", outcome.filter());
        filter.put("status", status(outcome.result().code()));
        filter.put("reasons", reasons(outcome.result()));
        filters.add(filter);
      }
      entry.put("filters", filters);
      entry.put("scores", new LinkedHashMap<String, Object>(node.scores()));
      entry.put("total", node.scores().isEmpty() ? null : node.total());
      nodes.add(entry);
    }
    json.put("nodes", nodes);
    json.put("note", explanation.note());
    json.put("preemption", explanation.preemption().map(ExplainRoute::preemption).orElse(null));
    return json;
  }

  private static Map<String, Object> decision(Decision decision, int nodeCount) {
    var json = new LinkedHashMap<String, Object>();
    if (decision instanceof Decision.Bind bind) {
      json.put("chosenNode", bind.nodeName());
      json.put("message", "");
    } else {
      json.put("chosenNode", null);
      json.put("message", ((Decision.Unschedulable) decision).message(nodeCount));
    }
    return json;
  }

  /** kube-scheduler's names of the status codes. */
  private static String status(FilterResult.Code code) {
    return switch (code) {
      case SUCCESS -> "Success";
      case UNSCHEDULABLE -> "Unschedulable";
      case UNSCHEDULABLE_AND_UNRESOLVABLE -> "UnschedulableAndUnresolvable";
      case ERROR -> "Error";
    };
  }

  private static List<String> reasons(FilterResult result) {
    if (result instanceof FilterResult.Rejected rejected) {
      return rejected.reasons().stream().map(Reason::message).toList();
    }
    if (result instanceof FilterResult.Failed failed) {
      return List.of(failed.message());
    }
    return List.of();
  }

  private static Map<String, Object> preemption(Explanation.PreemptionExplanation preemption) {
    var json = new LinkedHashMap<String, Object>();
    json.put("eligibility", preemption.eligibility());
    var candidates = new ArrayList<Object>();
    for (var candidate : preemption.candidates()) {
      var entry = new LinkedHashMap<String, Object>();
      entry.put("node", candidate.node());
      entry.put("victims", candidate.victims().stream().map(PodInfo::key).toList());
      entry.put("pdbViolations", candidate.pdbViolations());
      candidates.add(entry);
    }
    json.put("candidates", candidates);
    json.put("chosenNode", preemption.chosenNode().isEmpty() ? null : preemption.chosenNode());
    json.put("decidedBy", preemption.decidedBy());
    json.put("message", preemption.message());
    return json;
  }

  private static Map<String, Object> group(GroupExplanation group) {
    var json = new LinkedHashMap<String, Object>();
    json.put("group", group.group().key());
    json.put("placed", group.isPlaced());
    json.put("message", group.message());
    json.put("minCount", group.minMember());
    json.put("placedBefore", group.placed());
    var members = new ArrayList<Object>();
    for (var member : group.members()) {
      var entry = new LinkedHashMap<String, Object>();
      entry.put("pod", member.pod().key());
      entry.put("outcome", member.outcome().toString());
      entry.put("node", member.node().orElse(null));
      @Nullable Object explanation = member.explanation().map(ExplainRoute::explanation).orElse(null);
      entry.put("explanation", explanation);
      members.add(entry);
    }
    json.put("members", members);
    return json;
  }
}
