package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceAttributesBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.FieldValidateable.Validation;
import io.kubesched.policy.config.SchedulerConfiguration;
import io.kubesched.policy.config.SchedulerProfile;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * charts/kubesched as {@code helm template} renders it, on the real API server: every object, with the default values
 * and with every optional part on ({@value #ALL_FEATURES}), is accepted by a server-side dry run with strict field
 * validation; the chart's RBAC is deploy/'s; and, applied for real, it lets the scheduler's identity hold its own
 * Lease and no other.
 *
 * <p>helm is the one {@code scripts/helm.sh} pins (built from its Go module on first use), or the binary the system
 * property {@code kubesched.helm} names. Without Go and without that property the test fails: it never skips.
 *
 * <p>The test cluster has no Prometheus Operator: the test installs minimal CRDs for {@code
 * monitoring.coreos.com/v1} ServiceMonitor and PrometheusRule (any spec is kept), so that the dry run checks their
 * apiVersion, kind and metadata, not their specs.
 */
class ChartIT extends RealClusterTest {

  static final String CHART = "charts/kubesched";
  static final String ALL_FEATURES = "charts/kubesched/ci/all-features-values.yaml";
  /** The release name: its objects are named {@code chart-it-kubesched}, apart from the documented RBAC's. */
  static final String RELEASE = "chart-it";
  static final String KUBE_VERSION = "1.37.2";
  /** The scheduler's identity in the test cluster, which holds the documented RBAC. */
  static final String SCHEDULER_USER = "system:serviceaccount:kube-system:kubesched";

  @Test
  void every_rendered_object_passes_a_server_side_dry_run_with_default_and_with_all_values() throws Exception {
    installMonitoringCrds();
    // all-features-values.yaml keeps the Lease in a namespace of its own.
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("kubesched-leases").endMetadata()
        .build()).serverSideApply();
    for (var values : List.of(List.<String>of(), List.of("-f", ALL_FEATURES))) {
      var objects = render(values);
      var kinds = objects.stream().map(HasMetadata::getKind).toList();
      assertTrue(kinds.containsAll(List.of("Deployment", "ConfigMap", "Service", "ClusterRole", "Role",
          "PodDisruptionBudget", "CustomResourceDefinition")), kinds.toString());
      if (!values.isEmpty()) {
        assertTrue(kinds.containsAll(List.of("ServiceMonitor", "PrometheusRule")), kinds.toString());
      }
      for (var object : objects) {
        var resource = admin.resource(object).dryRun().fieldValidation(Validation.STRICT);
        try {
          resource.serverSideApply();
        } catch (KubernetesClientException e) {
          throw new AssertionError("the API server refused " + object.getKind() + " "
              + object.getMetadata().getName() + " (values " + values + "): " + e.getMessage(), e);
        }
      }
      // The configuration is one the server accepts, with the chart's profile and Lease.
      var config = configOf(objects);
      var parsed = SchedulerConfiguration.parse(config, "the chart's ConfigMap");
      var expectedProfile = values.isEmpty() ? "kubesched" : "kubesched-packing";
      assertEquals(List.of(expectedProfile),
          parsed.profiles().stream().map(SchedulerProfile::schedulerName).toList());
      var role = only(objects, Role.class);
      assertEquals(parsed.leaderElection().resourceNamespace(), role.getMetadata().getNamespace());
      assertEquals(List.of(parsed.leaderElection().resourceName()), role.getRules().get(1).getResourceNames());
    }
  }

  @Test
  void the_charts_rbac_is_deploys_without_the_policy_rules_when_the_policy_crd_is_off() throws Exception {
    var deployed = load(Files.readString(RealClusterExtension.projectDir().resolve("deploy/02-rbac.yaml")));
    var deployedRules = only(deployed, ClusterRole.class).getRules();
    // deploy/'s Lease is kubesched/kubesched.
    var chart = render(List.of("--set", "leaderElection.resourceName=kubesched"));
    assertEquals(Set.copyOf(deployedRules), Set.copyOf(only(chart, ClusterRole.class).getRules()));
    assertEquals(deployedRules.size(), only(chart, ClusterRole.class).getRules().size());
    assertEquals(only(deployed, Role.class).getRules(), only(chart, Role.class).getRules());

    var withoutPolicies = render(List.of("--set", "policyCrd.enabled=false"));
    var expected = new ArrayList<PolicyRule>(deployedRules);
    expected.removeIf(rule -> rule.getApiGroups().contains("kubesched.io"));
    assertEquals(expected.size() + 2, deployedRules.size(), "deploy/ has two SchedulingPolicy rules");
    assertEquals(expected, only(withoutPolicies, ClusterRole.class).getRules());
    assertTrue(withoutPolicies.stream().noneMatch(o -> o instanceof CustomResourceDefinition));
    var args = only(withoutPolicies, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0)
        .getArgs();
    assertTrue(args.contains("--no-policy-crd"), args.toString());
  }

  /**
   * The chart's RBAC, rendered for the scheduler's identity of the test cluster (service account
   * kube-system/kubesched) and a Lease of this test's namespace, applied for real. That identity also holds the
   * documented RBAC, whose Role grants it the Lease kube-system/kubesched, so the kube-system Leases checked here are
   * the other components' ones.
   */
  @Test
  void applied_the_charts_rbac_lets_the_scheduler_hold_its_lease_and_no_other() throws Exception {
    var lease = "chart-lease";
    var rbac = render(List.of("--namespace", "kube-system", "--set", "serviceAccount.create=false",
        "--set", "serviceAccount.name=kubesched", "--set", "leaderElection.resourceNamespace=" + namespace,
        "--set", "leaderElection.resourceName=" + lease)).stream()
        .filter(o -> o instanceof ClusterRole || o instanceof ClusterRoleBinding || o instanceof Role
            || o instanceof RoleBinding)
        .toList();
    assertEquals(4, rbac.size(), rbac.toString());
    try {
      for (var object : rbac) {
        admin.resource(object).serverSideApply();
      }
      var scheduler = client.kubernetesClient();
      var leases = scheduler.resources(Lease.class).inNamespace(namespace);
      // Its own Lease: created, read and updated (the lock renews with an update, as kube-scheduler's does).
      eventually(WAIT, "the chart's RBAC takes effect", () -> allowed("create", namespace, null));
      var created = leases.resource(new LeaseBuilder().withNewMetadata().withName(lease).endMetadata()
          .withNewSpec().withHolderIdentity("a").withLeaseDurationSeconds(15).endSpec().build()).create();
      assertEquals("a", leases.withName(lease).get().getSpec().getHolderIdentity());
      created.getSpec().setHolderIdentity("b");
      leases.resource(created).update();
      assertEquals("b", admin.resources(Lease.class).inNamespace(namespace).withName(lease).get().getSpec()
          .getHolderIdentity());
      for (var verb : List.of("get", "update")) {
        assertTrue(allowed(verb, namespace, lease), verb + " " + lease);
      }
      assertFalse(allowed("patch", namespace, lease), "patch " + lease + ": kube's role has get and update only");
      // Not its own Lease, even in the same namespace, nor list, watch or delete.
      admin.resources(Lease.class).inNamespace(namespace).resource(new LeaseBuilder().withNewMetadata()
          .withName("other").endMetadata().withNewSpec().withHolderIdentity("x").endSpec().build()).create();
      assertForbidden(() -> leases.withName("other").get());
      assertForbidden(() -> leases.withName("other").edit(l -> {
        l.getSpec().setHolderIdentity("mine");
        return l;
      }));
      assertForbidden(() -> leases.list());
      assertForbidden(() -> leases.withName(lease).delete());
      for (var verb : List.of("get", "update", "patch", "delete")) {
        assertFalse(allowed(verb, namespace, "other"), verb + " other");
      }
      for (var other : List.of("kube-scheduler", "kube-controller-manager")) {
        for (var verb : List.of("get", "update", "patch")) {
          assertFalse(allowed(verb, "kube-system", other), verb + " kube-system/" + other);
        }
      }
      assertFalse(allowed("list", namespace, null), "list leases");
    } finally {
      for (var object : rbac) {
        admin.resource(object).delete();
      }
    }
  }

  /** @return whether the scheduler's identity may do {@code verb} on Leases of {@code namespace} (named, or all) */
  private boolean allowed(String verb, String namespace, String name) {
    var review = admin.authorization().v1().subjectAccessReview().create(new SubjectAccessReviewBuilder()
        .withNewSpec()
        .withUser(SCHEDULER_USER)
        .withGroups("system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated")
        .withResourceAttributes(new ResourceAttributesBuilder().withGroup("coordination.k8s.io")
            .withResource("leases").withNamespace(namespace).withName(name).withVerb(verb).build())
        .endSpec()
        .build());
    return review.getStatus().getAllowed();
  }

  private static void assertForbidden(Runnable call) {
    var error = assertThrows(KubernetesClientException.class, call::run);
    assertEquals(403, error.getCode(), error.getMessage());
  }

  /** @return the objects {@code helm template} renders with the chart's values and {@code flags} */
  private List<HasMetadata> render(List<String> flags) throws IOException, InterruptedException {
    var projectDir = RealClusterExtension.projectDir().toAbsolutePath();
    var command = new ArrayList<>(List.of(helm(projectDir), "template", RELEASE, CHART, "--namespace", namespace,
        "--kube-version", KUBE_VERSION));
    command.addAll(flags); // a later --namespace wins
    var out = Files.createTempFile("chart-it-", ".yaml");
    var err = Files.createTempFile("chart-it-", ".err");
    try {
      var process = new ProcessBuilder(command).directory(projectDir.toFile())
          .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      assertTrue(process.waitFor(2, TimeUnit.MINUTES), "helm template did not end: " + command);
      assertEquals(0, process.exitValue(), () -> command + ": " + read(err));
      return load(Files.readString(out));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** @return the helm binary: {@code kubesched.helm}, else the one scripts/helm.sh builds or finds in its cache */
  private static String helm(Path projectDir) throws IOException, InterruptedException {
    var given = System.getProperty("kubesched.helm");
    if (given != null && !given.isBlank()) {
      return given;
    }
    var out = Files.createTempFile("helm-path-", ".txt");
    var err = Files.createTempFile("helm-path-", ".err");
    try {
      var process = new ProcessBuilder(projectDir.resolve("scripts/helm.sh").toString()).directory(projectDir.toFile())
          .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      assertTrue(process.waitFor(10, TimeUnit.MINUTES), "scripts/helm.sh did not end");
      assertEquals(0, process.exitValue(), () -> "scripts/helm.sh failed: " + read(err));
      return Files.readString(out).strip();
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(" + file + " unreadable: " + e + ")";
    }
  }

  private List<HasMetadata> load(String yaml) {
    return admin.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items().stream()
        .filter(o -> o != null)
        .toList();
  }

  private static <T extends HasMetadata> T only(List<HasMetadata> objects, Class<T> kind) {
    var found = objects.stream().filter(kind::isInstance).map(kind::cast).toList();
    assertEquals(1, found.size(), () -> "one " + kind.getSimpleName() + ": " + found);
    return found.get(0);
  }

  private static String configOf(List<HasMetadata> objects) {
    return objects.stream().filter(ConfigMap.class::isInstance).map(ConfigMap.class::cast)
        .filter(c -> c.getData().containsKey("config.yaml")).findFirst().orElseThrow()
        .getData().get("config.yaml");
  }

  /** Minimal monitoring.coreos.com/v1 CRDs for ServiceMonitor and PrometheusRule: any spec is kept. */
  private void installMonitoringCrds() {
    var crds = admin.apiextensions().v1().customResourceDefinitions();
    for (var kind : Map.of("ServiceMonitor", "servicemonitors", "PrometheusRule", "prometheusrules").entrySet()) {
      var yaml = """
          apiVersion: apiextensions.k8s.io/v1
          kind: CustomResourceDefinition
          metadata:
            name: %2$s.monitoring.coreos.com
          spec:
            group: monitoring.coreos.com
            scope: Namespaced
            names: {kind: %1$s, plural: %2$s, singular: %3$s, listKind: %1$sList}
            versions:
              - name: v1
                served: true
                storage: true
                schema:
                  openAPIV3Schema:
                    type: object
                    properties:
                      spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          """.formatted(kind.getKey(), kind.getValue(), kind.getKey().toLowerCase());
      var crd = crds.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).item();
      crds.resource(crd).serverSideApply();
      crds.withName(crd.getMetadata().getName()).waitUntilCondition(
          c -> c != null && c.getStatus() != null && c.getStatus().getConditions() != null
              && c.getStatus().getConditions().stream()
                  .anyMatch(k -> "Established".equals(k.getType()) && "True".equals(k.getStatus())),
          60, TimeUnit.SECONDS);
    }
  }
}
