package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.eventually;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.crd.SchedulingPolicy;
import io.kubesched.crd.SchedulingPolicyController;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * The SchedulingPolicy custom resource on the shared real cluster, for the tests that run its controller (in the
 * test's JVM or in the server's process): its CRD installed from the generated YAML, the scheduler's identity given
 * the rules the controller needs, and the {@code Accepted} condition read back. All through the admin client.
 */
final class SchedulingPolicyFixture {

  /** The generated CRD, relative to the reactor's root. */
  static final String CRD = "crds/schedulingpolicies.kubesched.io-v1.yml";

  private SchedulingPolicyFixture() {}

  /**
   * Creates (or updates: the cluster is shared by the whole run) the CRD from the generated YAML and waits until
   * the API server serves it.
   */
  static void installCrd(KubernetesClient admin) throws IOException {
    RealClusterExtension.applyCrd(admin, RealClusterExtension.projectDir().resolve(CRD));
  }

  /**
   * Lets the scheduler's service account ({@code kube-system/kubesched}, which holds the RBAC of docs/operations.md) do what
   * {@link SchedulingPolicyController}'s Javadoc says it needs beyond that. Idempotent.
   */
  static void grantPolicyRules(KubernetesClient admin) {
    var role = new ClusterRoleBuilder()
        .withNewMetadata().withName("kubesched-schedulingpolicies").endMetadata()
        .withRules(
            new PolicyRuleBuilder().withApiGroups(SchedulingPolicy.GROUP).withResources(SchedulingPolicy.PLURAL)
                .withVerbs("get", "list", "watch").build(),
            new PolicyRuleBuilder().withApiGroups(SchedulingPolicy.GROUP)
                .withResources(SchedulingPolicy.PLURAL + "/status").withVerbs("patch").build())
        .build();
    admin.rbac().clusterRoles().resource(role).serverSideApply();
    var binding = new ClusterRoleBindingBuilder()
        .withNewMetadata().withName("kubesched-schedulingpolicies").endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "kubesched-schedulingpolicies")
        .addNewSubject().withKind("ServiceAccount").withName("kubesched").withNamespace("kube-system").endSubject()
        .build();
    admin.rbac().clusterRoleBindings().resource(binding).serverSideApply();
  }

  /**
   * Waits until the policy's {@code Accepted} condition has {@code status} for the policy's current generation.
   *
   * @return that condition
   */
  static Condition awaitAccepted(KubernetesClient admin, String policy, String status, Duration timeout) {
    eventually(timeout, policy + " has Accepted=" + status, () -> accepted(admin, policy)
        .map(c -> status.equals(c.getStatus()) && generation(admin, policy) == c.getObservedGeneration())
        .orElse(false));
    return accepted(admin, policy).orElseThrow();
  }

  /** @return the policy's {@code Accepted} condition; empty if the policy is gone or has none yet */
  static Optional<Condition> accepted(KubernetesClient admin, String policy) {
    var object = admin.resources(SchedulingPolicy.class).withName(policy).get();
    return object == null || object.getStatus() == null ? Optional.empty() : object.getStatus().accepted();
  }

  /** @return the policy's {@code metadata.generation} */
  static long generation(KubernetesClient admin, String policy) {
    return admin.resources(SchedulingPolicy.class).withName(policy).get().getMetadata().getGeneration();
  }
}
