package io.kubesched.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kubesched.fabric8.SiblingClients;
import io.kubesched.http.BlockingHttpClient;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The binding client's transport under fabric8's operations, against the fake cluster. */
class BindingClientTest {

  @Test
  @DisplayName("on the fake cluster, fabric8's operations work through it: create, read, update, list, delete")
  void fabric8Operations() {
    try (var connection = KubeConnections.fake()) {
      var config = connection.client().getConfiguration();
      var http = new BlockingHttpClient.Factory(io.kubesched.fabric8.Fabric8Compat.get().inlineJdkHttpClientFactory()).newBuilder(config).build();
      try (var client = SiblingClients.over(http, config, SchedulingClients.serialization())) {
        var pods = client.pods().inNamespace("default");

        var created =
            pods.resource(new PodBuilder().withNewMetadata().withName("p").endMetadata().build()).create();
        Pod updated =
            pods.withName("p")
                .edit(pod -> new PodBuilder(pod).editMetadata().addToLabels("a", "b").endMetadata().build());
        Pod read = pods.withName("p").get();
        int listed = pods.list().getItems().size();
        pods.withName("p").delete();

        assertEquals(created.getMetadata().getUid(), read.getMetadata().getUid());
        assertEquals("b", updated.getMetadata().getLabels().get("a"));
        assertEquals("b", read.getMetadata().getLabels().get("a"));
        assertEquals(1, listed);
        assertNull(pods.withName("p").get());
      }
    }
  }
}
