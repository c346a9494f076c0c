package io.kubesched.server;

import io.kubesched.api.PodInfo;
import io.kubesched.facade.Controller;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /debug/whatif/capacity}, {@code /debug/whatif/drain} and {@code /debug/whatif/pods}: the what-if
 * questions of {@code kubesched-server simulate}, answered over the server's live view ({@link
 * Controller#snapshot()}, {@link Controller#pendingPods()}, {@link Controller#policy}) with the same simulation
 * and the same table or JSON ({@link WhatIf}; JSON when the {@code Accept} header lists {@code application/json}).
 * Nothing is bound, evicted or written: the simulation runs on a copy of the view, and the scheduler carries on.
 *
 * <p>Query parameters: {@code profile} (the scheduler name; optional when the server has one profile); capacity:
 * {@code pod=NAMESPACE/NAME} (a pending or placed pod this server sees, copied) and {@code limit} (default {@value
 * SimulateCommand#DEFAULT_LIMIT}); drain: {@code node}, repeated; pods: {@code candidate} (another profile whose
 * policy is compared) and {@code preemption=false}.
 *
 * <p>Answers 200 with the answer; 400 for a missing or bad parameter; 404 for a pod or node the server does not see;
 * 503 before the scheduler has listed the cluster. Errors are one line. Thread-safe: each request simulates on its
 * own HTTP thread, at the cost of about one decision per pod simulated.
 */
final class WhatIfRoute implements Route {

  private static final Logger LOG = LoggerFactory.getLogger(WhatIfRoute.class);

  static final String CAPACITY = "/debug/whatif/capacity";
  static final String DRAIN = "/debug/whatif/drain";
  static final String PODS = "/debug/whatif/pods";

  private final String path;
  private final Supplier<Controller> controller;
  private final SortedSet<String> profiles;

  private WhatIfRoute(String path, Supplier<Controller> controller, SortedSet<String> profiles) {
    this.path = path;
    this.controller = controller;
    this.profiles = profiles;
  }

  /**
   * @param controller the server's controller, asked at each request; it may throw {@link IllegalStateException}
   *     while there is none yet (the routes answer 503 then)
   * @param profiles the server's scheduler names
   * @return the three routes, by path
   */
  static Map<String, Route> all(Supplier<Controller> controller, Iterable<String> profiles) {
    Objects.requireNonNull(controller, "controller");
    var names = new TreeSet<String>();
    profiles.forEach(names::add);
    var sorted = Collections.unmodifiableSortedSet(names);
    return Map.of(
        CAPACITY, new WhatIfRoute(CAPACITY, controller, sorted),
        DRAIN, new WhatIfRoute(DRAIN, controller, sorted),
        PODS, new WhatIfRoute(PODS, controller, sorted));
  }

  @Override
  public Response get(Request request) {
    boolean json = ExplainRoute.wantsJson(request.accept());
    try {
      var answer = answer(request);
      return json
          ? new Response(200, ExplainRoute.JSON, Json.write(answer.json()) + "\n")
          : new Response(200, ExplainRoute.TEXT, answer.table());
    } catch (Refused e) {
      return ExplainRoute.error(json, e.status, e.getMessage());
    } catch (IllegalStateException notStarted) {
      return ExplainRoute.error(json, 503,
          "the scheduler has not listed the cluster yet; try again once /readyz answers 200");
    } catch (IllegalArgumentException e) { // the simulation's refusal of what it is given
      return ExplainRoute.error(json, 400, e.getMessage());
    } catch (RuntimeException e) {
      LOG.warn("{} failed", path, e);
      return ExplainRoute.error(json, 500, path + " failed: " + e.getClass().getSimpleName());
    }
  }

  private WhatIf.Answer answer(Request request) {
    var profile = profile(request.parameter("profile"), "profile");
    var live = controller.get();
    var view = WhatIf.View.of(live, profile);
    var cluster = view.cluster();
    return switch (path) {
      case CAPACITY -> {
        var key = request.parameter("pod")
            .orElseThrow(() -> new Refused(400, "missing query parameter pod: ask for " + CAPACITY
                + "?pod=NAMESPACE/NAME (a pod to copy)"));
        PodKey pod;
        try {
          pod = PodKey.parse(key);
        } catch (IllegalArgumentException e) {
          throw new Refused(400, e.getMessage());
        }
        var template = find(pod, cluster.nodes().stream().flatMap(n -> n.pods().stream()), live.pendingPods())
            .orElseThrow(() -> new Refused(404, "no pod " + pod + " among the pods this scheduler sees: those on "
                + "nodes, and the pending pods of its profiles"));
        int limit = number(request.parameter("limit"), "limit").orElse(SimulateCommand.DEFAULT_LIMIT);
        yield WhatIf.capacity(view, template.toBuilder().nodeName("").build(), limit);
      }
      case DRAIN -> {
        var nodes = request.query().getOrDefault("node", List.of());
        if (nodes.isEmpty()) {
          throw new Refused(400, "missing query parameter node: ask for " + DRAIN + "?node=NAME (repeat it for "
              + "several nodes)");
        }
        for (var node : nodes) {
          if (cluster.node(node).isEmpty()) {
            throw new Refused(404, "no node " + node + " among the " + cluster.nodes().size()
                + " nodes this scheduler sees");
          }
        }
        yield WhatIf.drain(view, nodes);
      }
      default -> {
        boolean preemption = !request.parameter("preemption").orElse("true").equals("false");
        var candidate = request.parameter("candidate");
        if (candidate.isEmpty()) {
          yield WhatIf.pods(view, List.of(), preemption);
        }
        var other = profile(candidate, "candidate");
        yield WhatIf.compare(view, List.of(), live.policy(other), preemption);
      }
    };
  }

  private String profile(Optional<String> asked, String parameter) {
    if (asked.isPresent()) {
      if (!profiles.contains(asked.get())) {
        throw new Refused(400, "query parameter " + parameter + "=" + asked.get()
            + " is not a profile of this scheduler; its profiles are " + profiles);
      }
      return asked.get();
    }
    if (profiles.size() != 1) {
      throw new Refused(400, "this scheduler has profiles " + profiles + ": name one with the query parameter "
          + parameter);
    }
    return profiles.first();
  }

  private static Optional<PodInfo> find(PodKey key, Stream<PodInfo> placed, List<PodInfo> pending) {
    return Stream.concat(placed, pending.stream())
        .filter(p -> p.namespace().equals(key.namespace()) && p.name().equals(key.name()))
        .findFirst();
  }

  private static Optional<Integer> number(Optional<String> value, String parameter) {
    if (value.isEmpty()) {
      return Optional.empty();
    }
    try {
      int number = Integer.parseInt(value.get());
      if (number >= 1) {
        return Optional.of(number);
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new Refused(400, "query parameter " + parameter + " must be a number from 1, was '" + value.get() + "'");
  }

  /** A request this route answers with an error status. */
  private static final class Refused extends RuntimeException {
    private final int status;

    Refused(int status, String message) {
      super(message, null, false, false);
      this.status = status;
    }
  }
}
