package io.kubesched.fabric8;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.client.Config;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Where the two fabric8 lines differ, as the rest of the library sees it through the seam: the same values on
 * both lines where the model differs, and each line's own behaviour where fabric8 itself differs. Runs on both
 * lines (this module is built once per line from these sources).
 */
class Fabric8CompatTest {

  private static final Fabric8Compat COMPAT = Fabric8Compat.get();

  private static boolean line8() {
    return COMPAT.builtFor().startsWith("8.");
  }

  /** Whether the running fabric8's model has the typed field (8, and 7 from 7.6 or so; not 7.5). */
  private static boolean typed(Class<?> type, String getter) {
    return java.util.Arrays.stream(type.getMethods()).anyMatch(m -> m.getName().equals(getter));
  }

  private static final String RESIZED_POD = """
      {"apiVersion": "v1", "kind": "Pod",
       "metadata": {"name": "web", "namespace": "default"},
       "spec": {"schedulingGroup": {"podGroupName": "job-a"}, "containers": [{"name": "app"}]},
       "status": {"allocatedResources": {"cpu": "3"},
                  "resources": {"requests": {"cpu": "6"}, "limits": {"cpu": "8"}}}}
      """;

  @Test
  void fields_newer_than_fabric8_7_5_read_the_same_on_every_model_and_live_in_additional_properties_where_untyped() {
    var pod = COMPAT.plainSerialization().unmarshal(RESIZED_POD, Pod.class);

    assertEquals(Map.of("cpu", new Quantity("3")), COMPAT.allocatedResources(pod.getStatus()));
    assertEquals(Map.of("cpu", new Quantity("6")), COMPAT.resources(pod.getStatus()).getRequests());
    var extras = pod.getStatus().getAdditionalProperties();
    var typedStatus = typed(PodStatus.class, "getAllocatedResources");
    if (line8()) {
      assertTrue(typedStatus, "fabric8 8's model has it");
    }
    assertEquals(!typedStatus, extras.containsKey("allocatedResources"), "where the model keeps it: " + extras);
    // Where the model has no typed field (fabric8 7.5), the group stays in the spec's extras: PodAdapter reads it.
    var typedGroup = typed(io.fabric8.kubernetes.api.model.PodSpec.class, "getSchedulingGroup");
    assertEquals(typedGroup ? Optional.of("job-a") : Optional.empty(), COMPAT.typedSchedulingGroupName(pod.getSpec()));
    assertEquals(!typedGroup, pod.getSpec().getAdditionalProperties().containsKey("schedulingGroup"));
  }

  @Test
  void what_is_set_is_read_back_and_null_clears_it() {
    var status = new PodStatus();
    var requests = new ResourceRequirements();
    requests.setRequests(Map.of("memory", new Quantity("1Gi")));

    COMPAT.setAllocatedResources(status, Map.of("cpu", new Quantity("2")));
    COMPAT.setResources(status, requests);

    assertEquals(Map.of("cpu", new Quantity("2")), COMPAT.allocatedResources(status));
    assertEquals(requests.getRequests(), COMPAT.resources(status).getRequests());
    COMPAT.setAllocatedResources(status, null);
    assertUnset(COMPAT.allocatedResources(status));
    // Unset: null, or the empty map a typed model starts with; both read as no resources.
    assertUnset(COMPAT.allocatedResources(new PodStatus()));
    assertNull(COMPAT.resources(new PodStatus()));
  }

  private static void assertUnset(@Nullable Map<String, Quantity> resources) {
    assertTrue(resources == null || resources.isEmpty(), String.valueOf(resources));
  }

  @Test
  void a_number_is_a_quantity_on_every_model() {
    var pod = COMPAT.plainSerialization().unmarshal(
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"status\":{\"allocatedResources\":{\"cpu\":4}}}", Pod.class);

    var cpu = COMPAT.allocatedResources(pod.getStatus()).get("cpu");
    assertEquals("4", cpu.getAmount() + (cpu.getFormat() == null ? "" : cpu.getFormat()));
  }

  /**
   * Where the model has no typed field (fabric8 7.5), the seam turns decoded JSON into quantities itself, unparsed,
   * so that the adapter's reader judges each text and names the field, as it does for fabric8 8's (which fails
   * to decode a list that is not an object at all).
   */
  @Test
  void on_an_untyped_model_each_value_is_kept_as_its_text_for_the_adapter_to_judge() {
    org.junit.jupiter.api.Assumptions.assumeFalse(typed(PodStatus.class, "getAllocatedResources"), "a typed model");
    var pod = COMPAT.plainSerialization().unmarshal("""
        {"apiVersion": "v1", "kind": "Pod",
         "status": {"allocatedResources": {"cpu": "", "memory": null, "gpu": {"a": 1}, "pods": "2Gi"},
                    "resources": 7}}
        """, Pod.class);

    var allocated = COMPAT.allocatedResources(pod.getStatus());
    assertEquals("", text(allocated.get("cpu")), "no parse, no exception: the adapter rejects the empty text");
    assertTrue(allocated.containsKey("memory") && allocated.get("memory") == null, "null as no quantity");
    assertEquals("{a=1} (not a quantity)", text(allocated.get("gpu")));
    assertEquals("2Gi", text(allocated.get("pods")));
    var requests = COMPAT.resources(pod.getStatus()).getRequests();
    assertEquals(Map.of("", "7 (not an object)"), Map.of("", text(requests.get(""))));
  }

  private static String text(@Nullable Quantity quantity) {
    assertTrue(quantity != null);
    return quantity.getAmount() + (quantity.getFormat() == null ? "" : quantity.getFormat());
  }

  @Test
  void a_kubeconfigs_tls_server_name_is_honoured_where_fabric8_has_the_setting() {
    var config = Config.fromKubeconfig("""
        apiVersion: v1
        kind: Config
        clusters:
        - name: c
          cluster: {server: "https://10.0.0.1:6443", tls-server-name: api.internal}
        users:
        - name: u
          user: {token: t}
        contexts:
        - name: x
          context: {cluster: c, user: u}
        current-context: x
        """);

    if (typed(Config.class, "getTlsServerName")) { // 8, and a 7 later than 7.5
      assertEquals("api.internal", COMPAT.tlsServerName(config));
    } else {
      assertNull(COMPAT.tlsServerName(config), "fabric8 7.5 has no TLS server name setting");
    }
  }

  @Test
  void the_lean_serialization_decodes_a_watch_event_in_one_pass_and_ignores_managed_fields_on_both_lines() {
    var lean = COMPAT.leanSerialization(java.util.List.of(Pod.class));
    var event = lean.unmarshal("""
        {"type": "ADDED", "object": {"kind": "Pod", "apiVersion": "v1",
          "metadata": {"name": "web", "managedFields": [{"manager": "kubectl"}]}}}
        """, io.fabric8.kubernetes.api.model.WatchEvent.class);

    assertTrue(event.getObject() instanceof Pod, String.valueOf(event.getObject()));
    var meta = ((Pod) event.getObject()).getMetadata();
    assertEquals("web", meta.getName());
    assertTrue(meta.getManagedFields() == null || meta.getManagedFields().isEmpty(), "managedFields ignored");
    assertFalse(lean.asJson(event.getObject()).contains("managedFields"));
  }
}
