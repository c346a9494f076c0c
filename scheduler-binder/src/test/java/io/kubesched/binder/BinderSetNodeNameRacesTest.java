package io.kubesched.binder;

import static io.kubesched.binder.BinderFixtures.NODE;
import static io.kubesched.binder.BinderFixtures.OTHER_NODE;
import static io.kubesched.binder.BinderFixtures.POD_PATH;
import static io.kubesched.binder.BinderFixtures.boundTo;
import static io.kubesched.binder.BinderFixtures.pod;
import static io.kubesched.binder.BinderFixtures.setNodeName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link BindMode#SET_NODE_NAME} when the pod changes between the read and the update, scripted on the mock
 * server in expectations mode.
 */
class BinderSetNodeNameRacesTest extends ExpectationsServerTest {

  @Test
  @DisplayName("the update puts spec.nodeName on the pod's own path")
  void updatePutsTheNodeName() throws Exception {
    server.expect().get().withPath(POD_PATH).andReturn(200, pod()).once();
    server.expect().put().withPath(POD_PATH).andReturn(200, boundTo(pod(), NODE)).once();
    server.expect().get().withPath(POD_PATH).andReturn(200, boundTo(pod(), NODE)).once();

    assertEquals(new BindOutcome.Bound(NODE, false), Binder.bind(setNodeName(client, pod(), NODE)));

    server.takeRequest(1, TimeUnit.SECONDS);
    var put = server.takeRequest(1, TimeUnit.SECONDS);
    assertEquals("PUT " + POD_PATH, put.getMethod() + " " + put.getPath());
    var sent = client.getKubernetesSerialization().unmarshal(put.getUtf8Body(), Pod.class);
    assertEquals(NODE, sent.getSpec().getNodeName());
    assertEquals(BinderFixtures.UID, sent.getMetadata().getUid());
  }

  @Test
  @DisplayName("an update answered 409 because someone bound the pod elsewhere meanwhile is a Conflict")
  void updateConflictWithAnotherNodeIsConflict() throws Exception {
    server.expect().get().withPath(POD_PATH).andReturn(200, pod()).once();
    server.expect().put().withPath(POD_PATH).andReturn(409, "{}").once();
    server.expect().get().withPath(POD_PATH).andReturn(200, boundTo(pod(), OTHER_NODE)).once();

    assertEquals(new BindOutcome.Conflict(OTHER_NODE), Binder.bind(setNodeName(client, pod(), NODE)));
  }

  @Test
  @DisplayName("an update answered 409 because a status write came between is made again on the pod read anew")
  void updateConflictWithAStatusWriteIsRetried() throws Exception {
    var withCondition = withResourceVersion(pod(), "2");
    server.expect().get().withPath(POD_PATH).andReturn(200, withResourceVersion(pod(), "1")).once();
    server.expect().put().withPath(POD_PATH).andReturn(409, "{}").once();
    server.expect().get().withPath(POD_PATH).andReturn(200, withCondition).once();
    server.expect().put().withPath(POD_PATH).andReturn(200, boundTo(withCondition, NODE)).once();
    server.expect().get().withPath(POD_PATH).andReturn(200, boundTo(withCondition, NODE)).once();

    assertEquals(new BindOutcome.Bound(NODE, false), Binder.bind(setNodeName(client, pod(), NODE)));

    server.takeRequest(1, TimeUnit.SECONDS);
    server.takeRequest(1, TimeUnit.SECONDS);
    server.takeRequest(1, TimeUnit.SECONDS);
    var second = server.takeRequest(1, TimeUnit.SECONDS);
    assertEquals("PUT " + POD_PATH, second.getMethod() + " " + second.getPath());
    var sent = client.getKubernetesSerialization().unmarshal(second.getUtf8Body(), Pod.class);
    assertEquals("2", sent.getMetadata().getResourceVersion(), "locked to the version read after the 409");
  }

  @Test
  @DisplayName("updates refused with 409 three times while the pod stays unbound are Failed, not an endless loop")
  void updatesRefusedEveryTimeAreFailed() throws Exception {
    server.expect().get().withPath(POD_PATH).andReturn(200, pod()).always();
    server.expect().put().withPath(POD_PATH).andReturn(409, "{}").always();

    var failed = assertInstanceOf(BindOutcome.Failed.class, Binder.bind(setNodeName(client, pod(), NODE)));
    assertTrue(failed.detail().contains("3 updates (409 Conflict)"), failed.detail());
    assertEquals(7, server.getRequestCount(), "one read, then three updates each followed by a read");
  }

  private static Pod withResourceVersion(Pod pod, String resourceVersion) {
    return new PodBuilder(pod).editMetadata().withResourceVersion(resourceVersion)
        .endMetadata().build();
  }

  @Test
  @DisplayName("an update answered 404 because the pod was deleted meanwhile is PodGone")
  void updateNotFoundIsPodGone() throws Exception {
    server.expect().get().withPath(POD_PATH).andReturn(200, pod()).once();
    server.expect().put().withPath(POD_PATH).andReturn(404, "{}").once();

    assertInstanceOf(BindOutcome.PodGone.class, Binder.bind(setNodeName(client, pod(), NODE)));
  }

  @Test
  @DisplayName("an update answered 500 is Failed with the code, not an exception")
  void updateServerErrorIsFailed() throws Exception {
    server.expect().get().withPath(POD_PATH).andReturn(200, pod()).once();
    server.expect().put().withPath(POD_PATH).andReturn(500, "{}").always();

    var failed = assertInstanceOf(BindOutcome.Failed.class, Binder.bind(setNodeName(client, pod(), NODE)));
    assertTrue(failed.detail().contains("500"), failed.detail());
  }

  @Test
  @DisplayName("a read answered 500 is Failed with the code, not an exception")
  void readServerErrorIsFailed() throws Exception {
    server.expect().get().withPath(POD_PATH).andReturn(500, "{}").always();

    var failed = assertInstanceOf(BindOutcome.Failed.class, Binder.bind(setNodeName(client, pod(), NODE)));
    assertTrue(failed.detail().contains("500"), failed.detail());
  }
}
