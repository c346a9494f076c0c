package io.kubesched.informer.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.kubesched.adapter.PodAdapter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The stores set on a real fabric8 informer (against the CRUD mock server): what its cache, its index and
 * its handlers then see.
 */
class InformerStoresInformerTest {

  private static final String BY_NODE = "byNode";
  private static final long WAIT_SECONDS = 10;

  /** One handler call: its kind and the objects it got. */
  private record Event(String kind, @Nullable Pod old, Pod pod) {}

  private KubernetesMockServer server;
  private KubernetesClient client;
  private SharedIndexInformer<Pod> informer;
  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

  @BeforeEach
  void startInformer() throws Exception {
    server = MockServers.crud();
    client = server.createClient(new JdkHttpClientFactory());
    informer = client.pods().inAnyNamespace().runnableInformer(0);
    informer.itemStore(InformerStores.pods());
    informer.addIndexers(Map.of(BY_NODE, pod -> List.of(PodFilters.nodeName(pod))));
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(Pod pod) {
            events.add(new Event("add", null, pod));
          }

          @Override
          public void onUpdate(Pod old, Pod pod) {
            events.add(new Event("update", old, pod));
          }

          @Override
          public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
            events.add(new Event("delete", null, pod));
          }
        });
    informer.start().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() {
    informer.stop();
    client.close();
    MockServers.destroy(server);
  }

  private Event next(String kind) throws InterruptedException {
    var event = events.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    assertNotNull(event, "no " + kind + " event");
    assertEquals(kind, event.kind());
    return event;
  }

  private void bind(Pod pod, String node) {
    client.pods().resource(pod).edit(p -> new PodBuilder(p).editSpec().withNodeName(node).endSpec().build());
  }

  private static Pod unboundDeploymentPod() {
    var pod = InformerStoresTest.fixture("deployment-pod.yaml", Pod.class);
    return new PodBuilder(pod)
        .editMetadata()
        .withResourceVersion(null)
        .endMetadata()
        .editSpec()
        .withNodeName(null)
        .endSpec()
        .build();
  }

  @Test
  void handlers_get_full_new_objects_and_the_kept_form_as_the_old_one() throws Exception {
    var created = client.resource(unboundDeploymentPod()).create();
    var added = next("add");
    assertFalse(added.pod().getMetadata().getAnnotations().isEmpty(), "onAdd got the kept form");

    bind(created, "node-7");
    var updated = next("update");
    assertTrue(updated.old().getMetadata().getAnnotations().isEmpty(), "old object is not the kept form");
    assertTrue(updated.old().getSpec().getContainers().get(0).getEnv().isEmpty());
    assertEquals("", PodFilters.nodeName(updated.old()));
    assertFalse(updated.pod().getSpec().getContainers().get(0).getEnv().isEmpty(), "new object is not full");
    assertEquals("node-7", PodFilters.nodeName(updated.pod()));
  }

  @Test
  void the_cache_and_its_index_hold_the_kept_form_and_follow_binding_and_deletion() throws Exception {
    var created = client.resource(unboundDeploymentPod()).create();
    next("add");
    var key = "shop/checkout-7d9f8b6c5d-x2lqp";
    var cached = informer.getStore().getByKey(key);
    assertTrue(cached.getMetadata().getManagedFields().isEmpty());
    assertEquals(PodAdapter.toPodInfo(created), PodAdapter.toPodInfo(cached));
    assertEquals(List.of(cached), informer.getIndexer().byIndex(BY_NODE, ""));

    bind(created, "node-7");
    next("update");
    assertTrue(informer.getIndexer().byIndex(BY_NODE, "").isEmpty(), "index entry of the unbound pod left");
    var onNode = informer.getIndexer().byIndex(BY_NODE, "node-7");
    assertEquals(1, onNode.size());
    assertTrue(onNode.get(0).getSpec().getContainers().get(0).getEnv().isEmpty());

    client.pods().resource(created).delete();
    var deleted = next("delete");
    assertEquals(created.getMetadata().getUid(), NodeListing.uid(deleted.pod()));
    assertTrue(
        informer.getIndexer().byIndex(BY_NODE, "node-7").isEmpty(), "index entry of a deleted pod left");
    assertEquals(List.of(), informer.getStore().list());
  }

  /** kube-scheduler's TestNewInformerFactoryTrim, through a running informer. */
  @Test
  void the_informers_lister_has_no_managed_fields() throws Exception {
    var pod = InformerStoresTest.podWithManagedFields();
    client.resource(pod).create();
    var added = next("add");
    assertFalse(added.pod().getMetadata().getManagedFields().isEmpty(), "the server dropped managedFields");
    assertTrue(informer.getStore().getByKey("default/test").getMetadata().getManagedFields().isEmpty());
  }
}
