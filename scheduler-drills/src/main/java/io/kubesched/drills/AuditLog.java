package io.kubesched.drills;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * kube-apiserver's audit log of the scheduler's identity's {@code list} and {@code watch} requests (the
 * policy {@link #POLICY}), read to count the LISTs the scheduler's informers made after a fault: a LIST after
 * the start means an informer relisted (after a 410 Gone, or a watch it could not resume).
 */
final class AuditLog {

  static final String USER = "system:serviceaccount:kube-system:kubesched";

  /** Logs the scheduler's list and watch requests once complete, with metadata only; nothing else. */
  static final String POLICY =
      """
      apiVersion: audit.k8s.io/v1
      kind: Policy
      omitStages: ["RequestReceived", "ResponseStarted"]
      rules:
      - level: Metadata
        users: ["%s"]
        verbs: ["list"]
      - level: None
      """.formatted(USER);

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

  /** @return whether one audit line is a completed LIST by the scheduler's identity */
  static boolean isSchedulerList(String line) {
    return line.contains("\"verb\":\"list\"") && line.contains("\"username\":\"" + USER + "\"")
        && line.contains("\"stage\":\"ResponseComplete\"");
  }

  private List<String> lines() throws IOException {
    return Files.readAllLines(file, StandardCharsets.UTF_8);
  }
}
