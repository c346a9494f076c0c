package io.kubesched.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.adapter.DynamicResourceAdapter;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.AllocationMode;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.ClaimConfig;
import io.kubesched.api.ConsumerRef;
import io.kubesched.api.Device;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.DeviceAttribute;
import io.kubesched.api.DeviceCapacity;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.DeviceRequirements;
import io.kubesched.api.DeviceTaint;
import io.kubesched.api.DeviceTaintRule;
import io.kubesched.api.NodeSelection;
import io.kubesched.api.OpaqueConfig;
import io.kubesched.api.Quantity;
import io.kubesched.api.ResourcePool;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The dynamic resource allocation objects as the real API server stores them ({@code resource.k8s.io/v1}, served
 * by default in 1.37): a DeviceClass, a ResourceSlice, a DeviceTaintRule and a ResourceClaim whose allocation and
 * {@code reservedFor} an admin writes to its status are read back and adapted exactly. Quantities are sent as JSON
 * strings with surrounding spaces, which the API server trims as the adapter does.
 */
class DynamicResourcesIT extends RealClusterTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final ResourceDefinitionContext TAINT_RULES =
      new ResourceDefinitionContext.Builder()
          .withGroup("resource.k8s.io")
          .withVersion("v1")
          .withKind("DeviceTaintRule")
          .withPlural("devicetaintrules")
          .withNamespaced(false)
          .build();

  private String name(String what) {
    return namespace + "-" + what;
  }

  @AfterEach
  void removeClusterScoped() {
    admin.resources(DeviceClass.class).withName(name("gpu")).delete();
    admin.resources(ResourceSlice.class).withName(name("slice")).delete();
    admin.genericKubernetesResources(TAINT_RULES).withName(name("rule")).delete();
  }

  @Test
  void the_adapter_reads_what_the_api_server_stores() {
    var driver = "gpu.e2e.example.com";
    admin.resources(DeviceClass.class)
        .resource(JSON.unmarshal(
            """
            {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "%s"},
             "spec": {"selectors": [{"cel": {"expression": "device.driver == '%s'"}}],
               "config": [{"opaque": {"driver": "%s", "parameters": {"mode": "shared"}}}]}}
            """.formatted(name("gpu"), driver, driver),
            DeviceClass.class))
        .create();
    admin.resources(ResourceSlice.class)
        .resource(JSON.unmarshal(
            """
            {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "%s"},
             "spec": {"driver": "%s", "nodeName": "node-a",
               "pool": {"name": "node-a", "generation": 1, "resourceSliceCount": 1},
               "devices": [{"name": "gpu-0",
                 "attributes": {"model": {"string": "a100"}, "cores": {"int": 108}},
                 "capacity": {"memory": {"value": " 40Gi "}},
                 "taints": [{"key": "degraded", "value": "ecc", "effect": "NoSchedule"}]}]}}
            """.formatted(name("slice"), driver),
            ResourceSlice.class))
        .create();
    admin.genericKubernetesResources(TAINT_RULES)
        .resource(JSON.unmarshal(
            """
            {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceTaintRule", "metadata": {"name": "%s"},
             "spec": {"deviceSelector": {"driver": "%s", "device": "gpu-0"},
               "taint": {"key": "maintenance", "effect": "NoExecute"}}}
            """.formatted(name("rule"), driver),
            GenericKubernetesResource.class))
        .create();
    var claims = admin.resources(ResourceClaim.class).inNamespace(namespace);
    var created =
        claims.resource(JSON.unmarshal(
                """
                {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
                 "metadata": {"namespace": "%s", "name": "gpu", "annotations": {"team": "ml"}},
                 "spec": {"devices": {"requests": [{"name": "one", "exactly": {"deviceClassName": "%s",
                   "capacity": {"requests": {"memory": " 8Gi"}}}}]}}}
                """.formatted(namespace, name("gpu")),
                ResourceClaim.class))
            .create();
    // A pod that exists: kube-controller-manager's resourceclaim-controller drops a reservation for a pod that does
    // not (it runs in the test cluster to make the claims of claim templates).
    var pod =
        admin.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName("trainer").endMetadata()
            .withNewSpec().withSchedulerName("nobody").addNewContainer().withName("c").withImage("busybox").endContainer()
            .endSpec().build()).create();
    var podUid = pod.getMetadata().getUid();
    var withStatus =
        JSON.unmarshal(
            """
            {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
             "status": {"allocation": {
                 "devices": {"results": [{"request": "one", "driver": "%s", "pool": "node-a", "device": "gpu-0"}]},
                 "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In",
                   "values": ["node-a"]}]}]}},
               "reservedFor": [{"resource": "pods", "name": "trainer", "uid": "%s"}]}}
            """.formatted(driver, podUid),
            ResourceClaim.class);
    withStatus.setMetadata(created.getMetadata());
    claims.resource(withStatus).updateStatus();

    var deviceClass = DynamicResourceAdapter.deviceClass(admin.resources(DeviceClass.class).withName(name("gpu")).get());
    assertEquals(
        new io.kubesched.api.DeviceClass(
            name("gpu"),
            List.of("device.driver == '" + driver + "'"),
            List.of(new OpaqueConfig(driver, "{\"mode\":\"shared\"}")),
            null),
        deviceClass);

    var slice = DynamicResourceAdapter.slice(admin.resources(ResourceSlice.class).withName(name("slice")).get());
    assertEquals(
        new io.kubesched.api.ResourceSlice(
            name("slice"),
            driver,
            new ResourcePool("node-a", 1, 1),
            NodeSelection.node("node-a"),
            false,
            List.of(
                new Device(
                    "gpu-0",
                    Map.of("model", new DeviceAttribute.StringValue("a100"), "cores", new DeviceAttribute.IntValue(108)),
                    Map.of("memory", new DeviceCapacity(Quantity.parse("40Gi"))),
                    List.of(),
                    NodeSelection.NONE,
                    List.of(new DeviceTaint("degraded", "ecc", DeviceTaint.Effect.NO_SCHEDULE,
                        slice.devices().get(0).taints().get(0).timeAdded())),
                    false,
                    List.of(),
                    List.of(),
                    false)),
            List.of()),
        slice);

    assertEquals(
        Optional.of(
            new DeviceTaintRule(
                name("rule"), driver, null, "gpu-0",
                new DeviceTaint("maintenance", "", DeviceTaint.Effect.NO_EXECUTE,
                    DynamicResourceAdapter.taintRule(admin.genericKubernetesResources(TAINT_RULES)
                        .withName(name("rule")).get()).orElseThrow().taint().timeAdded()))),
        DynamicResourceAdapter.taintRule(admin.genericKubernetesResources(TAINT_RULES).withName(name("rule")).get()));

    var stored = claims.withName("gpu").get();
    var claim = DynamicResourceAdapter.claim(stored);
    assertEquals(
        new io.kubesched.api.ResourceClaim(
            namespace,
            "gpu",
            stored.getMetadata().getUid(),
            stored.getMetadata().getResourceVersion(),
            null,
            Map.of("team", "ml"),
            List.of(
                DeviceRequest.exactly(
                    "one",
                    new DeviceRequirements(
                        name("gpu"), List.of(), AllocationMode.EXACT_COUNT, 1, false, List.of(),
                        Map.of("memory", Quantity.parse("8Gi"))))),
            List.of(),
            List.<ClaimConfig>of(),
            new AllocationResult(
                List.of(new DeviceAllocation("one", driver, "node-a", "gpu-0", false, List.of(), List.of(), List.of(),
                    null, Map.of())),
                List.of(),
                List.of(new NodeSelectorTerm(List.of(), List.of(
                    new NodeSelectorRequirement("metadata.name", NodeSelectorRequirement.Operator.IN, List.of("node-a"))))),
                null),
            List.of(ConsumerRef.pod("trainer", podUid)),
            false),
        claim);
    assertNull(claim.controller());
  }

  @Test
  void the_documented_rbac_lets_the_scheduler_read_the_dra_kinds_and_write_what_binding_writes() {
    var scheduler = client.kubernetesClient(); // the restricted identity, with docs/operations.md's RBAC
    admin.resources(DeviceClass.class)
        .resource(JSON.unmarshal(
            "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"DeviceClass\", \"metadata\": {\"name\": \""
                + name("gpu") + "\"}, \"spec\": {}}",
            DeviceClass.class))
        .create();
    assertEquals(name("gpu"), scheduler.resources(DeviceClass.class).withName(name("gpu")).get().getMetadata().getName());
    scheduler.resources(ResourceSlice.class).list();
    scheduler.resources(ResourceClaim.class).inAnyNamespace().list();
    scheduler.genericKubernetesResources(TAINT_RULES).list();
    try (var watch = scheduler.resources(ResourceClaim.class).inAnyNamespace().watch(new io.fabric8.kubernetes.client
        .Watcher<ResourceClaim>() {
          @Override
          public void eventReceived(Action action, ResourceClaim resource) {}

          @Override
          public void onClose(io.fabric8.kubernetes.client.WatcherException cause) {}
        })) {
      // opened: the watch verb is granted
    }

    var claims = scheduler.resources(ResourceClaim.class).inNamespace(namespace);
    var claim = JSON.unmarshal(
        """
        {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "made"},
         "spec": {"devices": {"requests": [{"name": "one", "exactly": {"deviceClassName": "%s"}}]}}}
        """.formatted(name("gpu")),
        ResourceClaim.class);
    var created = admin.resources(ResourceClaim.class).inNamespace(namespace).resource(claim).create();
    var pod =
        admin.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName("user").endMetadata()
            .withNewSpec().withSchedulerName("nobody").addNewContainer().withName("c").withImage("busybox")
            .withNewResources()
            .addToRequests("example.com/gpu", new io.fabric8.kubernetes.api.model.Quantity("1"))
            .addToLimits("example.com/gpu", new io.fabric8.kubernetes.api.model.Quantity("1"))
            .endResources().endContainer()
            .endSpec().build()).create();
    // PreBind: kube's finalizer (an update of the claim), then the allocation and reservedFor (of its status).
    created.getMetadata().setFinalizers(List.of("resource.kubernetes.io/delete-protection"));
    created = claims.resource(created).update();
    var withStatus =
        JSON.unmarshal(
            """
            {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
             "status": {"allocation": {"devices": {"results": [{"request": "one", "driver": "d.example.com",
                 "pool": "p", "device": "d0"}]}},
               "reservedFor": [{"resource": "pods", "name": "user", "uid": "%s"}]}}
            """.formatted(pod.getMetadata().getUid()),
            ResourceClaim.class);
    withStatus.setMetadata(created.getMetadata());
    var written = claims.resource(withStatus).updateStatus();
    assertEquals("d0", written.getStatus().getAllocation().getDevices().getResults().get(0).getDevice());
    // Unreserve: the pod out of reservedFor again, a strategic merge patch of the status.
    var claimWriter = new io.kubesched.binder.ClaimWriter(
        scheduler, io.kubesched.binder.TokenBucket.create(100, 100), java.time.Clock.systemUTC());
    try {
      claimWriter.unreserve(namespace, "made", created.getMetadata().getUid(), pod.getMetadata().getUid());
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    assertEquals(List.of(), claims.withName("made").get().getStatus().getReservedFor());

    admin.resources(ResourceClaim.class).inNamespace(namespace).withName("made")
        .edit(c -> {
          c.getMetadata().setFinalizers(List.of());
          return c;
        });
    admin.resources(ResourceClaim.class).inNamespace(namespace).withName("made").delete();

    // The claim for a pod's extended resources: created (with a generated name), named in the pod's status, and
    // deleted again after a failed binding, finalizer first.
    var extended = new io.kubesched.api.ExtendedResourceClaim("user", pod.getMetadata().getUid(),
        List.of(DeviceRequest.exactly("container-0-request-0", new DeviceRequirements(
            name("gpu"), List.of(), AllocationMode.EXACT_COUNT, 1, false, List.of(), Map.of()))),
        List.of(new io.kubesched.api.ExtendedResourceClaim.RequestMapping("c", "example.com/gpu",
            "container-0-request-0")));
    try {
      var made = (io.kubesched.binder.ClaimOutcome.Created) claimWriter.create(
          io.kubesched.adapter.ExtendedResourceClaims.toFabric8(namespace, extended));
      org.junit.jupiter.api.Assertions.assertTrue(made.name().startsWith("user-extended-resources-"), made.name());
      var stored = claims.withName(made.name()).get();
      assertEquals("user", stored.getMetadata().getOwnerReferences().get(0).getName());
      assertEquals(new io.kubesched.binder.ClaimOutcome.Written(), claimWriter.writeExtendedResourceClaimStatus(
          namespace, "user", pod.getMetadata().getUid(), made.name(),
          io.kubesched.adapter.ExtendedResourceClaims.mappings(extended)));
      var status = admin.pods().inNamespace(namespace).withName("user").get().getStatus()
          .getExtendedResourceClaimStatus();
      assertEquals(made.name(), status.getResourceClaimName());
      assertEquals("container-0-request-0", status.getRequestMappings().get(0).getRequestName());
      stored.getMetadata().setFinalizers(List.of("resource.kubernetes.io/delete-protection"));
      claims.resource(stored).update();
      claimWriter.delete(namespace, made.name(), made.uid());
      assertNull(admin.resources(ResourceClaim.class).inNamespace(namespace).withName(made.name()).get());
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}