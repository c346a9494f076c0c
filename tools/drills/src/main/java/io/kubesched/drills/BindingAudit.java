package io.kubesched.drills;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The binding POSTs of the scheduler's identity, read from kube-apiserver's audit log (written under {@link
 * AuditLog#POLICY}, which also logs the LISTs that {@link AuditLog} counts): what the leader-kill drill checks "no pod
 * bound twice" and the takeover's first binding on. The API server sees every binding of either replica, also
 * one whose process was killed before it could log or report it. Pure: a parser and two functions over what it
 * parsed; callable from any thread.
 */
final class BindingAudit {

  private static final Pattern OBJECT_REF = Pattern.compile("\"objectRef\":\\{([^}]*)}");
  private static final Pattern CODE = Pattern.compile("\"responseStatus\":\\{.*?\"code\":(\\d+)");
  private static final Pattern RECEIVED = Pattern.compile("\"requestReceivedTimestamp\":\"([^\"]+)\"");

  private BindingAudit() {}

  /**
   * One binding POST as the API server answered it.
   *
   * @param namespace the pod's namespace
   * @param name the pod's name
   * @param code the answer's status: 201 bound, 409 the pod was bound already, ...
   * @param received when the API server received it (its clock, which is the runner's: same machine)
   */
  record Binding(String namespace, String name, int code, Instant received) {

    /** @return whether the API server bound the pod */
    boolean succeeded() {
      return code >= 200 && code < 300;
    }
  }

  /**
   * @param line one line of the audit log
   * @return the binding it records, if it is a completed {@code pods/binding} create by the scheduler's identity
   *     with a status and a receive time; empty for any other line (a LIST, a line cut off by a restart)
   */
  static Optional<Binding> parse(String line) {
    if (!line.contains("\"stage\":\"ResponseComplete\"") || !line.contains("\"verb\":\"create\"")
        || !line.contains("\"username\":\"" + AuditLog.USER + "\"")) {
      return Optional.empty();
    }
    var ref = OBJECT_REF.matcher(line);
    if (!ref.find()) {
      return Optional.empty();
    }
    var fields = ref.group(1);
    var resource = field(fields, "resource");
    var subresource = field(fields, "subresource");
    var namespace = field(fields, "namespace");
    var name = field(fields, "name");
    var code = CODE.matcher(line);
    var received = RECEIVED.matcher(line);
    if (!"pods".equals(resource) || !"binding".equals(subresource) || namespace == null || name == null
        || !code.find() || !received.find()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new Binding(namespace, name, Integer.parseInt(code.group(1)), Instant.parse(received.group(1))));
    } catch (DateTimeParseException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** @return every binding among {@code lines}, in the log's order */
  static List<Binding> parseAll(Collection<String> lines) {
    return lines.stream().map(BindingAudit::parse).flatMap(Optional::stream).toList();
  }

  /**
   * "No pod bound twice", as the API server saw it.
   *
   * @param bindings the bindings of the drill so far
   * @param namespace the drill's namespace
   * @param pods the names of the pods to check (a trial's)
   * @return a {@link Violation.Kind#BOUND_TWICE} for each of {@code pods} that more than one binding POST bound,
   *     or that a binding POST found bound already (409: a replica tried to bind a pod its view had pending
   *     though another had bound it), in name order
   */
  static List<Violation> boundTwice(List<Binding> bindings, String namespace, Set<String> pods) {
    var byPod = new TreeMap<String, List<Binding>>();
    bindings.stream().filter(b -> b.namespace().equals(namespace) && pods.contains(b.name()))
        .forEach(b -> byPod.computeIfAbsent(b.name(), n -> new ArrayList<>()).add(b));
    var violations = new ArrayList<Violation>();
    byPod.forEach((pod, posts) -> {
      long bound = posts.stream().filter(Binding::succeeded).count();
      long conflicts = posts.stream().filter(b -> b.code() == 409).count();
      if (bound > 1 || conflicts > 0) {
        violations.add(new Violation(Violation.Kind.BOUND_TWICE, pod, String.format(
            "%d binding POSTs: answered %s", posts.size(), posts.stream().map(b -> String.valueOf(b.code())).toList())));
      }
    });
    return List.copyOf(violations);
  }

  /**
   * The takeover's second measure: from the leader's kill to the first pod bound after it.
   *
   * @param bindings the bindings of the drill so far
   * @param killed when the leader was sent SIGKILL
   * @param dead when it was seen dead: a binding the API server received later came from another replica
   * @return from {@code killed} to the receipt of the first successful binding received after {@code dead};
   *     empty if there is none
   */
  static Optional<Duration> firstBindingAfter(List<Binding> bindings, Instant killed, Instant dead) {
    return bindings.stream().filter(Binding::succeeded).map(Binding::received).filter(r -> r.isAfter(dead))
        .min(Instant::compareTo).map(first -> Duration.between(killed, first));
  }

  /** @return how many of {@code bindings} the API server received from {@code from} (inclusive) to {@code to} */
  static int received(List<Binding> bindings, Instant from, Instant to) {
    return (int) bindings.stream().filter(b -> !b.received().isBefore(from) && b.received().isBefore(to)).count();
  }

  private static @Nullable String field(String fields, String name) {
    Matcher matcher = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(fields);
    return matcher.find() ? matcher.group(1) : null;
  }
}
