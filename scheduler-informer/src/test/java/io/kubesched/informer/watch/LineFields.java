package io.kubesched.informer.watch;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sets fields of a pod or node as decoded JSON: typed fields on fabric8 8, additional properties on fabric8 7, whose model
 * lacks the newer fields ({@code spec.schedulingGroup}, a pod status's {@code allocatedResources} and {@code
 * resources}, a node status's {@code declaredFeatures}), so that one test covers both lines.
 */
final class LineFields {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private LineFields() {}

  /** {@code pod} with {@code fields} set in its {@code part} ({@code "spec"}, {@code "status"}). */
  @SuppressWarnings("unchecked")
  static Pod with(Pod pod, String part, Map<String, ?> fields) {
    Map<String, Object> json = JSON.convertValue(pod, Map.class);
    var object = (Map<String, Object>) json.computeIfAbsent(part, key -> new LinkedHashMap<>());
    object.putAll(fields);
    return JSON.convertValue(json, Pod.class);
  }

  /** {@code node} with {@code fields} set in its {@code part} ({@code "spec"}, {@code "status"}). */
  @SuppressWarnings("unchecked")
  static Node with(Node node, String part, Map<String, ?> fields) {
    Map<String, Object> json = JSON.convertValue(node, Map.class);
    var object = (Map<String, Object>) json.computeIfAbsent(part, key -> new LinkedHashMap<>());
    object.putAll(fields);
    return JSON.convertValue(json, Node.class);
  }
}
