package io.kubesched.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.api.PodRuntime;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What NodeDeclaredFeatures reads: a node's {@code status.declaredFeatures} and what a pod's spec asks of its node's
 * runtime. The objects are decoded from JSON, as the API server sends them, so that the same test covers fabric8 7,
 * whose model lacks {@code declaredFeatures} and {@code bindMountOptions} (they arrive as additional properties).
 */
class DeclaredFeaturesAdapterTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private static PodRuntime runtime(String spec) {
    var pod = JSON.unmarshal("{\"metadata\": {\"name\": \"p\", \"namespace\": \"d\"}, \"spec\": " + spec + "}", Pod.class);
    return PodAdapter.toPodInfo(pod).runtime();
  }

  private static List<String> declared(String status) {
    var node = JSON.unmarshal("{\"metadata\": {\"name\": \"n\"}, \"status\": " + status + "}", Node.class);
    return NodeAdapter.toNodeInfo(node, List.of()).declaredFeatures();
  }

  @Test
  void a_pod_that_asks_nothing_of_the_runtime_shares_the_one_none() {
    assertSame(PodRuntime.NONE, runtime("{\"containers\": [{\"name\": \"c\", \"volumeMounts\": [{\"name\": \"v\","
        + " \"mountPath\": \"/v\", \"bindMountOptions\": []}]}]}"));
  }

  @Test
  void host_network_and_host_users_are_read_as_set() {
    assertEquals(new PodRuntime(true, false, Set.of(), false), runtime("{\"hostNetwork\": true, \"hostUsers\": false}"));
    assertEquals(new PodRuntime(false, true, Set.of(), false), runtime("{\"hostUsers\": true}"));
  }

  @Test
  void restart_rule_actions_of_containers_and_init_containers_are_read() {
    var spec = "{\"initContainers\": [{\"name\": \"i\", \"restartPolicy\": \"Never\", \"restartPolicyRules\":"
        + " [{\"action\": \"RestartAllContainers\", \"exitCodes\": {\"operator\": \"In\", \"values\": [42]}}]}],"
        + " \"containers\": [{\"name\": \"c\", \"restartPolicy\": \"Never\", \"restartPolicyRules\":"
        + " [{\"action\": \"Restart\", \"exitCodes\": {\"operator\": \"NotIn\", \"values\": [0]}}]}]}";

    assertEquals(new PodRuntime(false, null, Set.of("RestartAllContainers", "Restart"), false), runtime(spec));
  }

  @Test
  void bind_mount_options_count_on_any_container_ephemeral_ones_included() {
    var onEphemeral = "{\"containers\": [{\"name\": \"c\"}], \"ephemeralContainers\": [{\"name\": \"debug\","
        + " \"volumeMounts\": [{\"name\": \"v\", \"mountPath\": \"/v\", \"bindMountOptions\": [\"nosuid\"]}]}]}";
    var onInit = "{\"initContainers\": [{\"name\": \"i\", \"volumeMounts\": [{\"name\": \"v\", \"mountPath\": \"/v\","
        + " \"bindMountOptions\": [\"nodev\", \"noexec\"]}]}], \"containers\": [{\"name\": \"c\"}]}";

    assertEquals(new PodRuntime(false, null, Set.of(), true), runtime(onEphemeral));
    assertEquals(new PodRuntime(false, null, Set.of(), true), runtime(onInit));
  }

  @Test
  void a_nodes_declared_features_are_read_in_their_order_and_none_when_unset() {
    assertEquals(
        List.of("RestartAllContainersOnContainerExits", "VolumeBindMountOptions"),
        declared("{\"declaredFeatures\": [\"RestartAllContainersOnContainerExits\", \"VolumeBindMountOptions\"]}"));
    assertEquals(List.of(), declared("{}"));
    assertEquals(List.of(), declared("{\"declaredFeatures\": []}"));
  }
}
