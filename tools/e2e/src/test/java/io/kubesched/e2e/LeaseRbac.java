package io.kubesched.e2e;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

/**
 * The Lease rights of docs/operations.md's RBAC for a Lease of a test's choosing. The documented Role grants the
 * scheduler's service account ({@code kube-system/kubesched}) one Lease, {@code kube-system/kubesched}; a test whose
 * scheduler campaigns for another Lease grants that one with the same rules, its namespace and name put in, so that
 * leader election runs with exactly the documented verbs.
 */
final class LeaseRbac {

  private LeaseRbac() {}

  /**
   * Creates or updates, as admin, a Role in {@code namespace} with the documented Lease rules for the Lease
   * {@code lease}, bound to the scheduler's service account. Idempotent.
   *
   * @throws IOException if docs/operations.md cannot be read
   * @throws IllegalStateException if its RBAC block has no Role
   */
  static void grant(KubernetesClient admin, String namespace, String lease) throws IOException {
    var name = "kubesched-lease-" + lease;
    var role = new RoleBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withRules(documentedRole(admin).getRules().stream().map(rule -> forLease(rule, lease)).toList())
        .build();
    admin.rbac().roles().inNamespace(namespace).resource(role).serverSideApply();
    var binding = new RoleBindingBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", "Role", name)
        .addNewSubject().withKind("ServiceAccount").withName("kubesched").withNamespace("kube-system").endSubject()
        .build();
    admin.rbac().roleBindings().inNamespace(namespace).resource(binding).serverSideApply();
  }

  /** @return the Role of docs/operations.md's RBAC block, the one that grants the Lease */
  static Role documentedRole(KubernetesClient admin) throws IOException {
    var docs = Files.readString(RealClusterExtension.projectDir().resolve("docs").resolve("operations.md"));
    var section = docs.indexOf("\n## RBAC\n");
    var start = section < 0 ? -1 : docs.indexOf("```yaml\n", section);
    if (start < 0) {
      throw new IllegalStateException("docs/operations.md has no yaml block under '## RBAC'");
    }
    start += "```yaml\n".length();
    List<HasMetadata> objects = admin.load(new ByteArrayInputStream(
        docs.substring(start, docs.indexOf("```", start)).getBytes(StandardCharsets.UTF_8))).items();
    return objects.stream().filter(Role.class::isInstance).map(Role.class::cast).findFirst()
        .orElseThrow(() -> new IllegalStateException("docs/operations.md's RBAC block has no Role"));
  }

  private static PolicyRule forLease(PolicyRule rule, String lease) {
    return rule.getResourceNames() == null || rule.getResourceNames().isEmpty()
        ? rule
        : new PolicyRuleBuilder(rule).withResourceNames(lease).build();
  }
}
