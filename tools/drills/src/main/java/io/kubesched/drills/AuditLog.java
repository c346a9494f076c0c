package io.kubesched.drills;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube-apiserver's audit log (the policy {@link #POLICY}) of two things: the scheduler's identity's {@code
 * list} requests, read to count the LISTs its informers made after a fault (a LIST after the start means an
 * informer relisted, after a 410 Gone or a watch it could not resume); and every {@code create} of a pod's
 * {@code binding}, by anyone, read to count the bindings the API server accepted per pod: more than one is a
 * pod bound twice, whatever the events say (an event can be lost, a binding the API server answered 2xx to
 * cannot).
 *
 * <p>Reads the file afresh on each call; kube-apiserver appends to it meanwhile (a line is written whole once
 * the request has completed, and the log survives a restart of kube-apiserver, which appends to the same
 * file). Not thread-safe; the runner's thread only.
 */
final class AuditLog {

  static final String USER = "system:serviceaccount:kube-system:kubesched";

  /**
   * Logs, once complete and with metadata only (the object's reference and the response's code, no bodies),
   * the scheduler's list requests and every create of a pod's binding (the subresource {@code pods/binding},
   * which the scheduler posts, and the older {@code bindings} resource); nothing else.
   */
  static final String POLICY =
      """
      apiVersion: audit.k8s.io/v1
      kind: Policy
      omitStages: ["RequestReceived", "ResponseStarted"]
      rules:
      - level: Metadata
        users: ["%s"]
        verbs: ["list"]
      - level: Metadata
        verbs: ["create"]
        resources:
        - group: ""
          resources: ["pods/binding", "bindings"]
      - level: None
      """.formatted(USER);

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final Path file;

  AuditLog(Path file) {
    this.file = file;
  }

  /** @return the flags that make kube-apiserver write this log with {@code policy} */
  List<String> apiServerFlags(Path policy) {
    return List.of("--audit-policy-file=" + policy, "--audit-log-path=" + file);
  }

  /** @return how many lines the log has now: a mark to count from */
  long mark() throws IOException {
    return Files.exists(file) ? lines().size() : 0;
  }

  /** @return the scheduler's LIST requests logged after {@code mark} */
  int listsSince(long mark) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    return (int) lines().stream().skip(mark).filter(AuditLog::isSchedulerList).count();
  }

  /**
   * @param namespace the pods' namespace
   * @return for each pod of {@code namespace} with a binding the API server accepted (answered 2xx) after
   *     {@code mark}, by name, how many it accepted; a refused binding (409: already bound; 404: no such pod;
   *     403; 5xx) does not count
   */
  Map<String, Integer> bindingsSince(long mark, String namespace) throws IOException {
    var counts = new HashMap<String, Integer>();
    if (Files.exists(file)) {
      lines().stream().skip(mark).map(AuditLog::acceptedBinding).flatMap(Optional::stream)
          .filter(b -> b.namespace().equals(namespace))
          .forEach(b -> counts.merge(b.pod(), 1, Integer::sum));
    }
    return Map.copyOf(counts);
  }

  /** @return whether one audit line is a completed LIST by the scheduler's identity */
  static boolean isSchedulerList(String line) {
    return line.contains("\"verb\":\"list\"") && line.contains("\"username\":\"" + USER + "\"")
        && line.contains("\"stage\":\"ResponseComplete\"");
  }

  /** A pod's binding the API server accepted. */
  record Binding(String namespace, String pod) {}

  /**
   * @param line one line of the log, a JSON audit event
   * @return the binding it records if it is the completed create of a pod's binding that the API server
   *     answered with 2xx; empty for any other line, a line that is not JSON included
   */
  static Optional<Binding> acceptedBinding(String line) {
    if (!line.contains("binding")) {
      return Optional.empty(); // most lines: no need to parse them
    }
    Map<?, ?> event;
    try {
      event = JSON.unmarshal(line, Map.class);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
    if (event == null || !"create".equals(event.get("verb")) || !"ResponseComplete".equals(event.get("stage"))
        || !(event.get("objectRef") instanceof Map<?, ?> ref) || !(event.get("responseStatus") instanceof Map<?, ?> status)
        || !(status.get("code") instanceof Number code) || code.intValue() / 100 != 2) {
      return Optional.empty();
    }
    boolean podBinding = "pods".equals(ref.get("resource")) && "binding".equals(ref.get("subresource"));
    boolean bindingResource = "bindings".equals(ref.get("resource")) && ref.get("subresource") == null;
    if (!(podBinding || bindingResource) || !(ref.get("namespace") instanceof String namespace)
        || !(ref.get("name") instanceof String pod)) {
      return Optional.empty();
    }
    return Optional.of(new Binding(namespace, pod));
  }

  private List<String> lines() throws IOException {
    return Files.readAllLines(file, StandardCharsets.UTF_8);
  }
}
