package io.kubesched.crd;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A {@code SchedulingPolicy} ({@value #GROUP}/{@value #VERSION}, cluster-scoped): one scheduling profile, in the
 * shape of a {@code KubeSchedulerConfiguration} profile, that replaces the configured profile of the same
 * {@code schedulerName} while it exists. {@link SchedulingPolicyController} applies it and reports in its {@link
 * SchedulingPolicyStatus status}.
 *
 * <p>The CRD ({@code crds/schedulingpolicies.kubesched.io-v1.yml}) is generated from this class and the records of
 * its spec and status by fabric8's CRD generator when the module is built; its schema rejects a malformed spec at
 * the API server (a missing or malformed {@code schedulerName}, a weight or percentage out of range, a value of
 * the wrong type).
 *
 * <p>A mutable fabric8 resource, as every {@link CustomResource} is: not thread-safe. Its spec and status are
 * immutable records. A new one has neither.
 */
@Group(SchedulingPolicy.GROUP)
@Version(SchedulingPolicy.VERSION)
@Kind(SchedulingPolicy.KIND)
@Plural(SchedulingPolicy.PLURAL)
@Singular("schedulingpolicy")
@ShortNames("schedpol")
@AdditionalPrinterColumn(
    name = "Scheduler",
    jsonPath = ".spec.schedulerName",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Accepted",
    jsonPath = ".status.conditions[?(@.type==\"Accepted\")].status",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Reason",
    jsonPath = ".status.conditions[?(@.type==\"Accepted\")].reason",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class SchedulingPolicy extends CustomResource<SchedulingPolicySpec, SchedulingPolicyStatus> {

  private static final long serialVersionUID = 1L;

  /** The API group. */
  public static final String GROUP = "kubesched.io";

  /** The API version within {@link #GROUP}. */
  public static final String VERSION = "v1alpha1";

  /** The kind. */
  public static final String KIND = "SchedulingPolicy";

  /** The resource's plural name, as in {@code kubectl get schedulingpolicies}. */
  public static final String PLURAL = "schedulingpolicies";

  /** The CRD's name: {@code <plural>.<group>}. */
  public static final String CRD_NAME = PLURAL + "." + GROUP;

  /** An empty policy, without metadata, spec or status. */
  public SchedulingPolicy() {}

  /**
   * @param name the object's name
   * @param spec the profile it sets
   * @return a new policy named {@code name} with {@code spec}, and no status
   */
  public static SchedulingPolicy of(String name, SchedulingPolicySpec spec) {
    var policy = new SchedulingPolicy();
    policy.getMetadata().setName(name);
    policy.setSpec(spec);
    return policy;
  }

  /** @return the profile this policy sets; null only for an object the API server did not validate */
  @Override
  @Required
  public @Nullable SchedulingPolicySpec getSpec() {
    return super.getSpec();
  }

  // No spec or status until one is set: fabric8's default would construct them reflectively.
  @Override
  protected @Nullable SchedulingPolicySpec initSpec() {
    return null;
  }

  @Override
  protected @Nullable SchedulingPolicyStatus initStatus() {
    return null;
  }
}
