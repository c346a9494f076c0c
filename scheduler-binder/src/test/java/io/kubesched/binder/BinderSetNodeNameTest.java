package io.kubesched.binder;

import static io.kubesched.binder.BinderFixtures.NAME;
import static io.kubesched.binder.BinderFixtures.NODE;
import static io.kubesched.binder.BinderFixtures.NS;
import static io.kubesched.binder.BinderFixtures.OTHER_NODE;
import static io.kubesched.binder.BinderFixtures.boundTo;
import static io.kubesched.binder.BinderFixtures.pod;
import static io.kubesched.binder.BinderFixtures.setNodeName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link BindMode#SET_NODE_NAME} against fabric8's mock server in CRUD mode, as the fake cluster runs it. */
class BinderSetNodeNameTest {

  private KubernetesMockServer server;
  private NamespacedKubernetesClient client;

  @BeforeEach
  void startServer() {
    server = BinderFixtures.crudServer();
    client = server.createClient(new JdkHttpClientFactory());
  }

  @AfterEach
  void stopServer() {
    client.close();
    server.destroy();
  }

  @Test
  @DisplayName("an unbound pod gets spec.nodeName set and is Bound, not already bound")
  void unboundPodIsBound() throws Exception {
    var stored = create(pod());

    var outcome = Binder.bind(setNodeName(client, stored, NODE));

    assertEquals(new BindOutcome.Bound(NODE, false), outcome);
    assertEquals(NODE, readBack().getSpec().getNodeName());
  }

  @Test
  @DisplayName("a pod already on the node is Bound and already bound, and is not updated")
  void podOnTheSameNodeIsAlreadyBound() throws Exception {
    var stored = create(boundTo(pod(), NODE));

    var outcome = Binder.bind(setNodeName(client, stored, NODE));

    assertEquals(new BindOutcome.Bound(NODE, true), outcome);
    assertEquals(stored.getMetadata().getResourceVersion(), readBack().getMetadata().getResourceVersion());
  }

  @Test
  @DisplayName("a pod on another node is a Conflict naming that node, and stays there")
  void podOnAnotherNodeIsConflict() throws Exception {
    var stored = create(boundTo(pod(), OTHER_NODE));

    var outcome = Binder.bind(setNodeName(client, stored, NODE));

    assertEquals(new BindOutcome.Conflict(OTHER_NODE), outcome);
    var after = readBack();
    assertEquals(OTHER_NODE, after.getSpec().getNodeName());
    assertEquals(stored.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion());
  }

  @Test
  @DisplayName("a pod that does not exist is PodGone")
  void missingPodIsPodGone() throws Exception {
    assertInstanceOf(BindOutcome.PodGone.class, Binder.bind(setNodeName(client, pod(), NODE)));
    assertNull(readBack());
  }

  @Test
  @DisplayName("a pod deleted and created again under the same name is PodGone; the new pod stays unbound")
  void recreatedPodIsPodGone() throws Exception {
    var first = create(pod());
    client.pods().inNamespace(NS).withName(NAME).delete();
    var second = create(pod());
    assertNotEquals(
        first.getMetadata().getUid(), second.getMetadata().getUid(), "the mock server reused a uid");

    var outcome = Binder.bind(setNodeName(client, first, NODE));

    assertInstanceOf(BindOutcome.PodGone.class, outcome);
    assertNull(readBack().getSpec().getNodeName());
  }

  @Test
  @DisplayName("binding one pod leaves the others in the namespace unbound")
  void onlyTheGivenPodIsBound() throws Exception {
    var stored = create(pod());
    create(pod(NS, "web-1", "ignored"));

    Binder.bind(setNodeName(client, stored, NODE));

    assertNull(client.pods().inNamespace(NS).withName("web-1").get().getSpec().getNodeName());
  }

  @Test
  @DisplayName("the CRUD mock server answers a binding POST with 409 and leaves the pod unbound")
  void subresourceDoesNotBindOnTheCrudMockServer() throws Exception {
    // Why SET_NODE_NAME exists. If a fabric8 upgrade makes this fail, the fake cluster may bind for real.
    var stored = create(pod());

    var outcome = Binder.bind(BinderFixtures.subresource(client, stored, NODE));

    var failed = assertInstanceOf(BindOutcome.Failed.class, outcome);
    assertTrue(failed.detail().contains("409"), failed.detail());
    assertNull(readBack().getSpec().getNodeName());
  }

  @Test
  @DisplayName("a pod stored without a spec gives an outcome, not an exception")
  void podWithoutSpecGivesAnOutcome() throws Exception {
    var stored =
        create(new PodBuilder().withNewMetadata().withNamespace(NS).withName(NAME).endMetadata().build());

    var outcome = Binder.bind(setNodeName(client, stored, NODE));

    assertEquals(new BindOutcome.Bound(NODE, false), outcome);
  }

  /** Creates the pod; the mock server assigns the uid and resource version, as an API server does. */
  private Pod create(Pod pod) {
    var withoutServerFields =
        new PodBuilder(pod).editMetadata().withUid(null).withResourceVersion(null).endMetadata().build();
    return client.pods().inNamespace(NS).resource(withoutServerFields).create();
  }

  private Pod readBack() {
    return client.pods().inNamespace(NS).withName(NAME).get();
  }
}
