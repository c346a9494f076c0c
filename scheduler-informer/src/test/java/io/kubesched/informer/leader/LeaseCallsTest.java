package io.kubesched.informer.leader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import io.kubesched.engine.Ticker;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A failing Lease call as the log and fabric8 see it: the API server's answer once per change (the tests' SLF4J
 * backend writes WARN to standard error), and a one-line exception without a stack trace for fabric8.
 */
class LeaseCallsTest {

  private static final String FORBIDDEN = "leases.coordination.k8s.io \"sched\" is forbidden: User"
      + " \"system:serviceaccount:kube-system:kubesched\" cannot get resource \"leases\" in API group"
      + " \"coordination.k8s.io\" in the namespace \"kube-system\"";

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private @Nullable PrintStream saved;
  private final AtomicReference<@Nullable KubernetesClientException> answer = new AtomicReference<>();
  private final LeaseCalls calls = new LeaseCalls("kube-system/sched", Duration.ofSeconds(2));
  private final LeaderLock lock = new LeaderLock(new StubLock(), Ticker.SYSTEM, calls);

  @BeforeEach
  void captureStandardError() {
    saved = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setErr(saved);
  }

  private long warnings() {
    return err.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("Leader election cannot")).count();
  }

  @Test
  void a_403_names_the_identity_the_verb_and_the_resource_once_however_often_it_repeats() {
    answer.set(refused(403, FORBIDDEN));
    for (int i = 0; i < 3; i++) {
      var failed = assertThrows(LeaderLock.Failed.class, () -> lock.get(null));
      assertEquals(403, failed.getCode());
      assertEquals("Leader election cannot get the lease kube-system/sched: 403: " + FORBIDDEN, failed.getMessage());
      assertEquals(0, failed.getStackTrace().length, "fabric8 logs it every retry period");
    }
    assertEquals(1, warnings(), err.toString(StandardCharsets.UTF_8));
    var line = err.toString(StandardCharsets.UTF_8);
    assertTrue(line.contains("system:serviceaccount:kube-system:kubesched") && line.contains("cannot get resource"),
        line);
    assertTrue(!line.contains("\tat "), "no stack trace: " + line);
  }

  @Test
  void a_changed_answer_or_the_same_failure_after_a_success_is_logged_again() {
    answer.set(refused(403, FORBIDDEN));
    assertThrows(LeaderLock.Failed.class, () -> lock.get(null));
    answer.set(refused(500, "etcd is down"));
    assertThrows(LeaderLock.Failed.class, () -> lock.get(null));
    assertEquals(2, warnings());

    answer.set(null);
    assertNull(lock.get(null));
    assertNull(calls.lastFailure());
    answer.set(refused(500, "etcd is down"));
    assertThrows(LeaderLock.Failed.class, () -> lock.get(null));
    assertEquals(3, warnings());
    assertEquals("Leader election cannot get the lease kube-system/sched: 500: etcd is down", calls.lastFailure());
  }

  @Test
  void a_request_that_got_no_answer_says_so_with_what_stopped_it() {
    answer.set(new KubernetesClientException("An error has occurred.",
        new java.net.ConnectException("Connection refused")));
    var failed = assertThrows(LeaderLock.Failed.class, () -> lock.get(null));
    assertEquals("Leader election cannot get the lease kube-system/sched: no answer from the API server"
        + " (java.net.ConnectException: Connection refused)", failed.getMessage());
  }

  private static KubernetesClientException refused(int code, String message) {
    return new KubernetesClientException(new StatusBuilder().withCode(code).withMessage(message).build());
  }

  /** Answers every read with nothing (no Lease), or throws the answer set. */
  private final class StubLock implements Lock {
    @Override
    public @Nullable LeaderElectionRecord get(KubernetesClient client) {
      var failure = answer.get();
      if (failure != null) {
        throw failure;
      }
      return null;
    }

    @Override
    public void create(KubernetesClient client, LeaderElectionRecord record) {}

    @Override
    public void update(KubernetesClient client, LeaderElectionRecord record) {}

    @Override
    public String identity() {
      return "me";
    }

    @Override
    public String describe() {
      return "kube-system/sched";
    }
  }
}
