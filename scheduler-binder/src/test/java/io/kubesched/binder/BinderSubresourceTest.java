package io.kubesched.binder;

import static io.kubesched.binder.BinderFixtures.BINDING_PATH;
import static io.kubesched.binder.BinderFixtures.NAME;
import static io.kubesched.binder.BinderFixtures.NODE;
import static io.kubesched.binder.BinderFixtures.NS;
import static io.kubesched.binder.BinderFixtures.OTHER_NODE;
import static io.kubesched.binder.BinderFixtures.POD_PATH;
import static io.kubesched.binder.BinderFixtures.UID;
import static io.kubesched.binder.BinderFixtures.boundTo;
import static io.kubesched.binder.BinderFixtures.pod;
import static io.kubesched.binder.BinderFixtures.recreated;
import static io.kubesched.binder.BinderFixtures.subresource;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link BindMode#SUBRESOURCE} against fabric8's mock server in expectations mode. */
class BinderSubresourceTest extends ExpectationsServerTest {

  @Test
  @DisplayName("posts a Binding for the pod's name, namespace and uid, targeting the node")
  void postsBindingToTheSubresource() throws Exception {
    expectBinding(201);

    Binder.bind(subresource(client, pod(), NODE));

    var post = server.takeRequest(1, TimeUnit.SECONDS);
    assertNotNull(post, "no request reached the server");
    assertEquals("POST", post.getMethod());
    assertEquals(BINDING_PATH, post.getPath());
    assertTrue(
        post.getHeader("Content-Type").startsWith("application/json"),
        "Content-Type was " + post.getHeader("Content-Type"));
    var binding = client.getKubernetesSerialization().unmarshal(post.getUtf8Body(), Binding.class);
    assertAll(
        () -> assertEquals("v1", binding.getApiVersion()),
        () -> assertEquals("Binding", binding.getKind()),
        () -> assertEquals(NAME, binding.getMetadata().getName()),
        () -> assertEquals(NS, binding.getMetadata().getNamespace()),
        () -> assertEquals(UID, binding.getMetadata().getUid()),
        () -> assertEquals("Node", binding.getTarget().getKind()),
        () -> assertEquals("v1", binding.getTarget().getApiVersion()),
        () -> assertEquals(NODE, binding.getTarget().getName()));
  }

  @ParameterizedTest(name = "answer {0}")
  @ValueSource(ints = {200, 201})
  @DisplayName("an accepted binding is Bound and not already bound, without reading the pod back")
  void acceptedBindingIsBound(int code) throws Exception {
    expectBinding(code);

    var outcome = Binder.bind(subresource(client, pod(), NODE));

    assertEquals(new BindOutcome.Bound(NODE, false), outcome);
    assertEquals(List.of("POST " + BINDING_PATH), requests());
  }

  @Test
  @DisplayName("409 with the pod on the same node is Bound and already bound (an earlier POST had succeeded)")
  void conflictOnTheSameNodeIsAlreadyBound() throws Exception {
    expectBinding(409);
    expectPod(boundTo(pod(), NODE));

    assertEquals(new BindOutcome.Bound(NODE, true), Binder.bind(subresource(client, pod(), NODE)));
  }

  @Test
  @DisplayName("409 with the pod on another node is a Conflict naming that node")
  void conflictOnAnotherNodeIsConflict() throws Exception {
    expectBinding(409);
    expectPod(boundTo(pod(), OTHER_NODE));

    assertEquals(new BindOutcome.Conflict(OTHER_NODE), Binder.bind(subresource(client, pod(), NODE)));
  }

  @Test
  @DisplayName("409 with the pod still unbound is Failed")
  void conflictButUnboundIsFailed() throws Exception {
    expectBinding(409);
    expectPod(pod());

    var failed = assertInstanceOf(BindOutcome.Failed.class, Binder.bind(subresource(client, pod(), NODE)));
    assertTrue(failed.detail().contains("409"), failed.detail());
  }

  @Test
  @DisplayName("409 from a failed uid precondition, the name now held by another pod, is PodGone")
  void conflictWithAnotherUidIsPodGone() throws Exception {
    expectBinding(409);
    expectPod(boundTo(recreated(pod(), "uid-2"), OTHER_NODE));

    var gone = assertInstanceOf(BindOutcome.PodGone.class, Binder.bind(subresource(client, pod(), NODE)));
    assertTrue(gone.detail().contains(UID), gone.detail());
  }

  @Test
  @DisplayName("404 on the binding is PodGone, without reading the pod")
  void notFoundIsPodGone() throws Exception {
    expectBinding(404);

    assertInstanceOf(BindOutcome.PodGone.class, Binder.bind(subresource(client, pod(), NODE)));
    assertEquals(List.of("POST " + BINDING_PATH), requests());
  }

  @Test
  @DisplayName("409 whose pod then reads back as 404 is PodGone")
  void podDeletedAfterConflictIsPodGone() throws Exception {
    expectBinding(409);
    server
        .expect()
        .get()
        .withPath(POD_PATH)
        .andReturn(404, new StatusBuilder().withCode(404).withReason("NotFound").build())
        .once();

    assertInstanceOf(BindOutcome.PodGone.class, Binder.bind(subresource(client, pod(), NODE)));
  }

  @ParameterizedTest(name = "answer {0}")
  @ValueSource(ints = {400, 403, 422, 500, 503})
  @DisplayName("any other answer is Failed with its code and body, never an exception")
  void otherAnswersAreFailed(int code) throws Exception {
    server.expect().post().withPath(BINDING_PATH).andReturn(code, "the server says no").always();

    var failed = assertInstanceOf(BindOutcome.Failed.class, Binder.bind(subresource(client, pod(), NODE)));
    assertTrue(failed.detail().contains(String.valueOf(code)), failed.detail());
    assertTrue(failed.detail().contains("the server says no"), failed.detail());
  }

  @Test
  @DisplayName("a long error body is cut short in the detail")
  void longErrorBodyIsAbbreviated() throws Exception {
    server.expect().post().withPath(BINDING_PATH).andReturn(500, "x".repeat(5_000)).once();

    var failed = assertInstanceOf(BindOutcome.Failed.class, Binder.bind(subresource(client, pod(), NODE)));
    assertTrue(failed.detail().length() < 400, "detail has " + failed.detail().length() + " characters");
  }

  @Test
  @DisplayName("a 500 is Failed with the code at once: the POST is not re-sent behind the caller's back")
  void serverErrorIsFailedWithoutFabric8Retries() throws Exception {
    var retrying = BinderFixtures.clientWithRetries(server, 2, 10);
    try {
      server.expect().post().withPath(BINDING_PATH).andReturn(500, "etcd is down").always();

      var failed =
          assertInstanceOf(BindOutcome.Failed.class, Binder.bind(subresource(retrying, pod(), NODE)));
      assertTrue(failed.detail().contains("500"), failed.detail());
      // The client would retry twice; the binder sends the POST once and leaves retrying to its caller.
      assertEquals(1, server.getRequestCount());
    } finally {
      retrying.close();
    }
  }

  @Test
  @DisplayName("a 500 that had bound the pod, retried by the caller, answers 409: Bound and already bound")
  void retriedPostAnsweredWithConflictIsAlreadyBound() throws Exception {
    var retrying = BinderFixtures.clientWithRetries(server, 1, 10);
    try {
      server.expect().post().withPath(BINDING_PATH).andReturn(500, "lost answer").once();
      expectBinding(409);
      expectPod(boundTo(pod(), NODE));

      assertInstanceOf(BindOutcome.Failed.class, Binder.bind(subresource(retrying, pod(), NODE)));
      assertEquals(new BindOutcome.Bound(NODE, true), Binder.bind(subresource(retrying, pod(), NODE)));
      assertEquals(
          List.of("POST " + BINDING_PATH, "POST " + BINDING_PATH, "GET " + POD_PATH), requests());
    } finally {
      retrying.close();
    }
  }

  @Test
  @DisplayName("a server error while reading the pod back after a 409 is Failed, not an exception")
  void serverErrorOnReadBackIsFailed() throws Exception {
    expectBinding(409);
    server.expect().get().withPath(POD_PATH).andReturn(500, "read failed").always();

    var failed = assertInstanceOf(BindOutcome.Failed.class, Binder.bind(subresource(client, pod(), NODE)));
    assertTrue(failed.detail().contains("500"), failed.detail());
  }

  @Test
  @DisplayName("a server that does not answer within the timeout is Failed, mentioning the time-out")
  void slowServerIsFailedAfterTheTimeout() throws Exception {
    server.expect().post().delay(3, TimeUnit.SECONDS).withPath(BINDING_PATH).andReturn(201, "{}").always();
    var options = new BindOptions(client, pod(), NODE, Duration.ofMillis(300), BindMode.SUBRESOURCE);

    long start = System.nanoTime();
    var outcome = Binder.bind(options);
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    var failed = assertInstanceOf(BindOutcome.Failed.class, outcome);
    assertTrue(failed.detail().contains("timed out"), failed.detail());
    assertTrue(elapsedMillis < 2_000, "took " + elapsedMillis + " ms");
  }

  @Test
  @DisplayName("a server that does not answer is Failed after twice the timeout even while fabric8 retries")
  void slowServerWithRetriesIsFailedAfterTwiceTheTimeout() throws Exception {
    var retrying = BinderFixtures.clientWithRetries(server, 10, 10);
    try {
      server.expect().post().delay(3, TimeUnit.SECONDS).withPath(BINDING_PATH).andReturn(201, "{}").always();
      var options = new BindOptions(retrying, pod(), NODE, Duration.ofMillis(300), BindMode.SUBRESOURCE);

      long start = System.nanoTime();
      var outcome = Binder.bind(options);
      long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      var failed = assertInstanceOf(BindOutcome.Failed.class, outcome);
      assertTrue(failed.detail().contains("timed out after PT0.3S"), failed.detail());
      assertTrue(elapsedMillis < 2_500, "took " + elapsedMillis + " ms");
    } finally {
      retrying.close();
    }
  }

  @Test
  @DisplayName("no binding request is sent after bind() gave up on a time-out")
  void noBindingIsSentAfterATimeOut() throws Exception {
    var retrying = BinderFixtures.clientWithRetries(server, 10, 10);
    try {
      server.expect().post().delay(1, TimeUnit.SECONDS).withPath(BINDING_PATH).andReturn(201, "{}").always();
      var options = new BindOptions(retrying, pod(), NODE, Duration.ofMillis(300), BindMode.SUBRESOURCE);

      assertInstanceOf(BindOutcome.Failed.class, Binder.bind(options));
      // The mock server records a request when it answers it, after the delay.
      Thread.sleep(2_500);

      assertTrue(server.getRequestCount() <= 2, server.getRequestCount() + " POSTs reached the server");
    } finally {
      retrying.close();
    }
  }

  @Test
  @DisplayName("an interrupted caller gets InterruptedException")
  void interruptedCallerGetsInterruptedException() {
    server.expect().post().delay(3, TimeUnit.SECONDS).withPath(BINDING_PATH).andReturn(201, "{}").always();
    Thread.currentThread().interrupt();
    try {
      assertThrows(InterruptedException.class, () -> Binder.bind(subresource(client, pod(), NODE)));
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  @DisplayName("options for the subresource bind through it")
  void defaultOptionsUseTheSubresource() throws Exception {
    expectBinding(201);

    var options = new BindOptions(client, pod(), NODE, Duration.ofSeconds(30), BindMode.SUBRESOURCE);

    assertEquals(new BindOutcome.Bound(NODE, false), Binder.bind(options));
    assertEquals("POST " + BINDING_PATH, requests().get(0));
  }

  private void expectBinding(int code) {
    server.expect().post().withPath(BINDING_PATH).andReturn(code, "{}").once();
  }

  private void expectPod(Object pod) {
    server.expect().get().withPath(POD_PATH).andReturn(200, pod).once();
  }

  /** Every request the server received so far, as "METHOD path". */
  private List<String> requests() throws InterruptedException {
    var seen = new ArrayList<String>();
    RecordedRequest request;
    while ((request = server.takeRequest(100, TimeUnit.MILLISECONDS)) != null) {
      seen.add(request.getMethod() + " " + request.getPath());
    }
    return seen;
  }
}
