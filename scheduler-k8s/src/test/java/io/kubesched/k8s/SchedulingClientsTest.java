package io.kubesched.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The scheduling loop's client: the user's HTTP client, a serialization without managedFields. */
class SchedulingClientsTest {

  private static final String BOUND_POD_EVENT =
      """
      {"type":"MODIFIED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"pod-1",
        "namespace":"bench","uid":"u-1","resourceVersion":"42","labels":{"app":"web"},
        "managedFields":[{"manager":"runner","operation":"Update","apiVersion":"v1",
          "time":"2026-11-28T04:20:00Z","fieldsType":"FieldsV1",
          "fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:schedulerName":{}}}}]},
      "spec":{"nodeName":"node-1","schedulerName":"kubesched","containers":[{"name":"c","image":"i"}]}}}
      """;

  @Test
  @DisplayName("a watched pod decodes as a Pod with every field but its managedFields")
  void podWithoutManagedFields() {
    WatchEvent event = SchedulingClients.serialization().unmarshal(BOUND_POD_EVENT, WatchEvent.class);

    var pod = assertInstanceOf(Pod.class, event.getObject());
    assertTrue(pod.getMetadata().getManagedFields().isEmpty(), "managedFields were decoded");
    assertEquals("42", pod.getMetadata().getResourceVersion());
    assertEquals("web", pod.getMetadata().getLabels().get("app"));
    assertEquals("node-1", pod.getSpec().getNodeName());
    assertTrue(pod.getMetadata().getAdditionalProperties().isEmpty(), "managedFields kept as unknown");
  }

  @Test
  @DisplayName("a watch's ERROR event decodes its Status, so that 410 Gone makes the informer list again")
  void watchErrorIsAStatus() {
    WatchEvent event =
        SchedulingClients.serialization()
            .unmarshal(
                """
                {"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},
                  "status":"Failure","message":"too old resource version: 1 (42)","reason":"Expired",
                  "code":410}}
                """,
                WatchEvent.class);

    assertEquals(410, assertInstanceOf(Status.class, event.getObject()).getCode());
  }

  @Test
  @DisplayName("registered kinds decode typed; any other kind as a generic resource, never failing")
  void registeredKindsOnly() {
    var serialization = SchedulingClients.serialization();

    WatchEvent lease =
        serialization.unmarshal(
            """
            {"type":"ADDED","object":{"kind":"Lease","apiVersion":"coordination.k8s.io/v1",
              "metadata":{"name":"kubesched"}}}""",
            WatchEvent.class);
    WatchEvent configMap =
        serialization.unmarshal(
            """
            {"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c"},
              "data":{"k":"v"}}}""",
            WatchEvent.class);

    assertInstanceOf(Lease.class, lease.getObject());
    var generic = assertInstanceOf(GenericKubernetesResource.class, configMap.getObject());
    assertEquals("c", generic.getMetadata().getName());
  }

  @Test
  @DisplayName("an object written by the scheduling client carries no managedFields")
  void encodesWithoutManagedFields() {
    var pod =
        new PodBuilder()
            .withNewMetadata()
            .withName("p")
            .withManagedFields(new ManagedFieldsEntryBuilder().withManager("someone").build())
            .endMetadata()
            .build();

    var json = SchedulingClients.serialization().asJson(pod);

    assertFalse(json.contains("managedFields"), json);
    assertTrue(json.contains("\"name\":\"p\""), json);
  }

  @Test
  @DisplayName("on the fake cluster: one HTTP client; the user's client reads managedFields, the"
      + " scheduling client's watch does not; closing the connection closes both")
  void siblingOnTheFakeCluster() throws Exception {
    var connection = KubeConnections.fake();
    try (connection) {
      var user = connection.client();
      var scheduling = connection.schedulingClient();
      assertSame(user.getHttpClient(), scheduling.getHttpClient());
      assertEquals(user.getMasterUrl(), scheduling.getMasterUrl());

      var seen = new ArrayBlockingQueue<Pod>(4);
      try (var watch =
          scheduling.pods().inNamespace("default").watch(new Watcher<Pod>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
              seen.add(pod);
            }

            @Override
            public void onClose(WatcherException cause) {}
          })) {
        user.pods()
            .inNamespace("default")
            .resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName("p")
                    .withManagedFields(new ManagedFieldsEntryBuilder().withManager("runner").build())
                    .endMetadata()
                    .build())
            .create();

        var watched = seen.poll(10, TimeUnit.SECONDS);
        assertEquals("p", watched.getMetadata().getName());
        assertTrue(watched.getMetadata().getManagedFields().isEmpty(), "the watch decoded managedFields");
      }
      var read = user.pods().inNamespace("default").withName("p").get();
      assertEquals("runner", read.getMetadata().getManagedFields().get(0).getManager());
      assertTrue(
          scheduling.pods().inNamespace("default").withName("p").get().getMetadata().getManagedFields()
              .isEmpty());
    }
    assertTrue(connection.client().getHttpClient().isClosed());
    assertTrue(connection.schedulingClient().getHttpClient().isClosed());
  }
}
