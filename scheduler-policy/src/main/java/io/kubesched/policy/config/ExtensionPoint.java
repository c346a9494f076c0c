package io.kubesched.policy.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * An extension point of kube-scheduler 1.37's framework, by the field a KubeSchedulerConfiguration profile's
 * {@code plugins} names it with, in the order kube-scheduler's framework resolves them ({@code
 * getExtensionPoints}), so that the first error found is the one kube-scheduler reports. {@code multiPoint} is
 * not one: it stands for every extension point a plugin implements.
 */
enum ExtensionPoint {
  PRE_FILTER("preFilter", "PreFilterPlugin"),
  FILTER("filter", "FilterPlugin"),
  POST_FILTER("postFilter", "PostFilterPlugin"),
  RESERVE("reserve", "ReservePlugin"),
  PRE_SCORE("preScore", "PreScorePlugin"),
  SCORE("score", "ScorePlugin"),
  PRE_BIND("preBind", "PreBindPlugin"),
  BIND("bind", "BindPlugin"),
  POST_BIND("postBind", "PostBindPlugin"),
  PERMIT("permit", "PermitPlugin"),
  PRE_ENQUEUE("preEnqueue", "PreEnqueuePlugin"),
  QUEUE_SORT("queueSort", "QueueSortPlugin"),
  PLACEMENT_GENERATE("placementGenerate", "PlacementGeneratePlugin"),
  PLACEMENT_SCORE("placementScore", "PlacementScorePlugin"),
  POD_GROUP_POST_FILTER("podGroupPostFilter", "PodGroupPostFilterPlugin");

  /** The {@code plugins} field that configures every extension point at once. */
  static final String MULTI_POINT = "multiPoint";

  private final String field;
  private final String kubeType;

  ExtensionPoint(String field, String kubeType) {
    this.field = field;
    this.kubeType = kubeType;
  }

  /** @return the field of a profile's {@code plugins} that configures it, such as {@code preFilter} */
  String field() {
    return field;
  }

  /** @return the framework's interface name, as kube-scheduler's messages use it, such as {@code FilterPlugin} */
  String kubeType() {
    return kubeType;
  }

  /** @return whether its plugins carry weights ({@code score}, {@code placementScore}) */
  boolean weighted() {
    return this == SCORE || this == PLACEMENT_SCORE;
  }

  /** @return the extension point configured by the {@code plugins} field {@code field} */
  static Optional<ExtensionPoint> ofField(String field) {
    return Arrays.stream(values()).filter(p -> p.field.equals(field)).findFirst();
  }

  /** @return every {@code plugins} field: the extension points' and {@value #MULTI_POINT} */
  static List<String> fields() {
    var fields = new ArrayList<String>();
    fields.add(MULTI_POINT);
    Arrays.stream(values()).map(ExtensionPoint::field).forEach(fields::add);
    return List.copyOf(fields);
  }
}
