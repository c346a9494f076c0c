package io.kubesched.policy.plugins.dynamicresources;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.ContainerRequests;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.ExtendedResourceClaim.RequestMapping;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** kube's {@code extendeddynamicresources_test.go}: {@code Test_createRequestsAndMappings_*}, case by case. */
class ExtendedResourceRequestsTest {

  private static final String EXT = "example.com/gpu";
  private static final String IMPLICIT = "deviceclass.resource.kubernetes.io/classInit";

  /** kube's {@code st.MakePod()} with {@code Res}, {@code InitReq} and {@code SidecarReq}, in call order. */
  private static final class PodShape {
    private final List<ContainerRequests> init = new ArrayList<>();
    private final List<Map<String, Long>> regular = new ArrayList<>();

    PodShape res(Map<String, Long> requests) {
      regular.add(requests);
      return this;
    }

    PodShape initReq(Map<String, Long> requests) {
      init.add(container(init.size(), "init-con" + init.size(), true, false, requests));
      return this;
    }

    PodShape sidecarReq(Map<String, Long> requests) {
      init.add(container(init.size(), "sidecar-con" + init.size(), true, true, requests));
      return this;
    }

    List<ContainerRequests> containers() {
      var all = new ArrayList<>(init);
      for (int i = 0; i < regular.size(); i++) {
        all.add(container(init.size() + i, "con" + i, false, false, regular.get(i)));
      }
      return all;
    }

    private static ContainerRequests container(
        int index, String name, boolean init, boolean sidecar, Map<String, Long> requests) {
      return new ContainerRequests(index, name, init, sidecar, List.copyOf(new TreeSet<>(requests.keySet())), requests);
    }
  }

  private static final PodShape POD1 = new PodShape().res(Map.of(EXT, 1L, EXT + "1", 2L));
  private static final PodShape POD2 = new PodShape().res(Map.of(EXT, 1L)).res(Map.of(EXT + "1", 2L));
  private static final PodShape POD_INIT = new PodShape().res(Map.of(EXT, 1L)).initReq(Map.of(EXT + "init", 2L));
  private static final PodShape POD_INIT2 =
      new PodShape().res(Map.of(EXT, 1L)).initReq(Map.of(EXT + "init", 1L)).initReq(Map.of(EXT + "init", 2L));
  private static final PodShape POD_INIT3 = new PodShape().res(Map.of(EXT, 1L))
      .initReq(Map.of(EXT + "init", 1L)).sidecarReq(Map.of(EXT + "init", 1L)).initReq(Map.of(EXT + "init", 2L));

  private static DeviceRequest req(String name, String className, long count) {
    return DeviceRequest.exactly(name, new io.kubesched.api.DeviceRequirements(
        className, List.of(), io.kubesched.api.AllocationMode.EXACT_COUNT, count, false, List.of(), Map.of()));
  }

  @Nested
  class Requests {
    private final DeviceRequest devReq = req("container-0-request-0", "class", 1);
    private final DeviceRequest devReq2 = req("container-0-request-1", "class1", 2);
    private final DeviceRequest devReq3 = req("container-1-request-0", "class1", 2);
    private final DeviceRequest devReqInit = req("container-1-request-0", "class", 1);
    private final DeviceRequest devReqSidecar = req("container-1-request-0", "classInit", 1);
    private final DeviceRequest devReq2Init = req("container-1-request-0", "classInit", 2);
    private final DeviceRequest devReq6Init = req("container-0-request-0", "classInit", 2);
    private final DeviceRequest devReq3Init = req("container-2-request-0", "class", 1);
    private final DeviceRequest devReq4Init = req("container-3-request-0", "class", 1);
    private final DeviceRequest devReq5Init = req("container-2-request-0", "classInit", 2);

    private List<DeviceRequest> requests(PodShape pod, Map<String, String> classes) {
      return ExtendedResourceRequests.build(pod.containers(), classes).requests();
    }

    @Test
    void nil() {
      assertEquals(List.of(), requests(POD1, Map.of()));
    }

    @Test
    void oneResourceMatch() {
      assertEquals(List.of(devReq), requests(POD1, Map.of(EXT, "class")));
    }

    @Test
    void oneResourceMatchOneResourceNotMatch() {
      // kube passes both resources and a resolver that knows one; only resources with a class reach build
      assertEquals(List.of(devReq), requests(POD1, Map.of(EXT, "class")));
    }

    @Test
    void twoResourcesMatch() {
      assertEquals(List.of(devReq, devReq2), requests(POD1, Map.of(EXT, "class", EXT + "1", "class1")));
    }

    @Test
    void twoContainersMatch() {
      assertEquals(List.of(devReq, devReq3), requests(POD2, Map.of(EXT, "class", EXT + "1", "class1")));
    }

    @Test
    void oneInitContainerOneRegularContainer() {
      assertEquals(List.of(devReq6Init, devReqInit), requests(POD_INIT, Map.of(EXT, "class", EXT + "init", "classInit")));
    }

    @Test
    void twoInitContainersOneRegularContainer() {
      assertEquals(List.of(devReq2Init, devReq3Init), requests(POD_INIT2, Map.of(EXT, "class", EXT + "init", "classInit")));
    }

    @Test
    void threeInitContainersOneSidecarOneRegularContainer() {
      assertEquals(List.of(devReqSidecar, devReq5Init, devReq4Init), requests(POD_INIT3, Map.of(EXT, "class", EXT + "init", "classInit")));
    }
  }

  @Nested
  class Mappings {
    private final RequestMapping cer = new RequestMapping("con0", EXT, "container-0-request-0");
    private final RequestMapping cer1 = new RequestMapping("con0", EXT + "1", "container-0-request-1");
    private final RequestMapping cer2 = new RequestMapping("con1", EXT + "1", "container-1-request-0");
    private final RequestMapping cer3 = new RequestMapping("con0", EXT, "container-1-request-0");
    private final RequestMapping cer4 = new RequestMapping("con0", EXT, "container-2-request-0");
    private final RequestMapping cer5 = new RequestMapping("con0", EXT, "container-3-request-0");
    private final RequestMapping cerInit = new RequestMapping("init-con0", EXT + "init", "container-1-request-0");
    private final RequestMapping cerInit0 = new RequestMapping("init-con0", EXT + "init", "container-0-request-0");
    private final RequestMapping cerInit1 = new RequestMapping("init-con0", EXT + "init", "container-1-request-0");
    private final RequestMapping cerInit2 = new RequestMapping("init-con1", EXT + "init", "container-1-request-0");
    private final RequestMapping cerInit3 = new RequestMapping("init-con2", EXT + "init", "container-2-request-0");
    private final RequestMapping cerSidecar =
        new RequestMapping("sidecar-con1", EXT + "init", "container-1-request-0");
    private final RequestMapping cerInitImplicit =
        new RequestMapping("init-con0", EXT + "init", "container-0-request-0");
    private final RequestMapping cerInit4Implicit =
        new RequestMapping("init-con0", EXT + "init", "container-0-request-1");
    private final RequestMapping cerInit2Implicit = new RequestMapping("init-con1", IMPLICIT, "container-1-request-0");
    private final RequestMapping cerInit3Implicit = new RequestMapping("init-con0", IMPLICIT, "container-0-request-0");

    private final Map<String, String> devMap = Map.of(EXT, "class", EXT + "1", "class1");
    private final Map<String, String> devMapInit = Map.of(EXT, "class", EXT + "init", "classInit", IMPLICIT, "classInit");

    /** kube sorts the mappings by request name, then container name, before comparing. */
    private List<RequestMapping> mappings(PodShape pod, Map<String, String> classes) {
      var got = new ArrayList<>(ExtendedResourceRequests.build(pod.containers(), classes).mappings());
      got.sort(Comparator.comparing(RequestMapping::requestName).thenComparing(RequestMapping::containerName));
      return got;
    }

    @Test
    void oneContainerTwoRequests() {
      assertEquals(List.of(cer, cer1), mappings(POD1, devMap));
    }

    @Test
    void oneContainerOneExplicitAndOneImplicitRequest() {
      var pod = new PodShape().initReq(Map.of(EXT + "init", 1L, IMPLICIT, 2L));
      assertEquals(List.of(cerInit3Implicit, cerInit4Implicit), mappings(pod, devMapInit));
    }

    @Test
    void twoContainersTwoRequests() {
      assertEquals(List.of(cer, cer2), mappings(POD2, devMap));
    }

    @Test
    void oneInitContainerOneRegularContainerOneRequest() {
      assertEquals(List.of(cerInit0, cer3), mappings(POD_INIT, Map.of(EXT, "class", EXT + "init", "classInit")));
    }

    @Test
    void threeContainersTwoAreInitContainerTwoRequests() {
      assertEquals(List.of(cerInit, cerInit2, cer4), mappings(POD_INIT2, Map.of(EXT, "class", EXT + "init", "classInit")));
    }

    @Test
    void threeContainersTwoAreInitContainerBothExplicitAndImplicitResources() {
      var pod = new PodShape().res(Map.of(EXT, 1L)).initReq(Map.of(EXT + "init", 1L)).initReq(Map.of(IMPLICIT, 2L));
      assertEquals(List.of(cerInitImplicit, cerInit2Implicit, cer4), mappings(pod, devMapInit));
    }

    @Test
    void fourContainersTwoAreInitContainerOneSidecarThreeRequests() {
      assertEquals(List.of(cerInit1, cerSidecar, cerInit3, cer5), mappings(POD_INIT3, Map.of(EXT, "class", EXT + "init", "classInit")));
    }
  }
}
