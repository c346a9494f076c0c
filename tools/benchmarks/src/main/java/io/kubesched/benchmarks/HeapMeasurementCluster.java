package io.kubesched.benchmarks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The JSON an API server sends for the nodes and pods of a production-like cluster, for {@link
 * HeapMeasurement}: objects are parsed from text, as an informer parses them, so that every string is its
 * own instance as it would be in a real watch cache.
 *
 * <p>Every pod is a Deployment's pod as {@code kubectl get pod -o json} shows it on a recent cluster: an
 * application container (nine environment variables, an {@code envFrom}, liveness and readiness probes,
 * three volume mounts, a security context) and a log-shipping sidecar; configMap, emptyDir and projected
 * service-account volumes; node affinity on the node pool, pod anti-affinity, a topology spread
 * constraint and the two default tolerations; six annotations, six labels, two managedFields entries (the
 * controller manager's and the kubelet's); a running status with five conditions and two container
 * statuses. The pods are spread evenly over a given number of Deployments, in twenty namespaces; the pods
 * of one Deployment differ in their names, uids, IPs, node, timestamps and container ids.
 *
 * <p>Every node is a cloud VM as its kubelet reports it: twelve labels, three annotations, two managedFields
 * entries, four conditions, three addresses, capacity and allocatable, node info, and the images it holds
 * (eight system images, the images of the Deployments whose pods run there and of their previous releases,
 * each by digest and by tag, with one digest and size per image); one node in ten is tainted.
 *
 * <p>Deterministic: the same index gives the same text. Not thread-safe.
 */
final class HeapMeasurementCluster {

  private static final int NAMESPACES = 20;
  /** A prime, so that stepping through the Deployments by it visits each equally often. */
  private static final int STRIDE = 7919;

  private static final long SEED = 0x4EA9_2026L;
  private static final String ZONES = "abc";
  private static final List<String> POOLS = List.of("general", "general", "services", "frontend");
  /** The characters Kubernetes draws generated name suffixes from. */
  private static final String SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

  private static final String SIDECAR_IMAGE = "registry.example.com/infra/fluent-bit:3.2.4";
  private static final List<String> SYSTEM_IMAGES =
      List.of(
          "registry.k8s.io/pause:3.10",
          "registry.k8s.io/kube-proxy:v1.37.2",
          "quay.io/prometheus/node-exporter:v1.9.1",
          SIDECAR_IMAGE,
          "quay.io/cilium/cilium:v1.18.2",
          "quay.io/cilium/operator-generic:v1.18.2",
          "public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.45.0",
          "registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.14.0");

  /** A Deployment: where its pods live and what they ask for. */
  private record App(
      String namespace,
      String name,
      String version,
      String templateHash,
      String replicaSetUid,
      String configChecksum,
      String cpu,
      String memory,
      String memoryLimit) {

    String image() {
      return "registry.example.com/" + namespace + "/" + name + ":" + version;
    }

    String previousImage() {
      return "registry.example.com/" + namespace + "/" + name + ":" + version + "-rc1";
    }
  }

  /** An image as every node that holds it reports it: the same digest and size everywhere. */
  private record Image(String digest, int size) {}

  private final SplittableRandom random = new SplittableRandom(SEED);
  private final List<App> apps = new ArrayList<>();
  private final Map<String, Image> images = new HashMap<>();
  private final int podsPerNode;

  /**
   * @param podsPerNode how many pods {@link #podJson} places on each node, at least 1
   * @param deployments how many Deployments the pods belong to, at least 1
   * @throws IllegalArgumentException if {@code podsPerNode} or {@code deployments} is less than 1
   */
  HeapMeasurementCluster(int podsPerNode, int deployments) {
    if (podsPerNode < 1) {
      throw new IllegalArgumentException("podsPerNode must be at least 1, was " + podsPerNode);
    }
    if (deployments < 1) {
      throw new IllegalArgumentException("deployments must be at least 1, was " + deployments);
    }
    this.podsPerNode = podsPerNode;
    var names =
        List.of(
            "checkout", "cart", "catalog", "search", "payments", "accounts",
            "recommendations", "shipping", "notifications", "gateway", "inventory", "reviews");
    String[] cpus = {"100m", "250m", "500m", "1"};
    String[] memories = {"256Mi", "512Mi", "1Gi", "1536Mi"};
    String[] limits = {"512Mi", "1Gi", "2Gi", "2Gi"};
    for (int i = 0; i < deployments; i++) {
      int size = i % cpus.length;
      apps.add(
          new App(
              "team-" + (i % NAMESPACES),
              names.get(i % names.size()) + (i < names.size() ? "" : "-" + i / names.size()),
              "4." + (i % 10) + "." + (i * 7 % 10),
              suffix(10),
              uuid(),
              hex(64),
              cpus[size],
              memories[size],
              limits[size]));
    }
    for (var image : SYSTEM_IMAGES) {
      images.put(image, new Image(hex(64), 1_000_000 + random.nextInt(400_000_000)));
    }
    for (var app : apps) {
      images.put(app.image(), new Image(hex(64), 1_000_000 + random.nextInt(400_000_000)));
      images.put(app.previousImage(), new Image(hex(64), 1_000_000 + random.nextInt(400_000_000)));
    }
  }

  /** The Deployment that runs the pod in slot {@code slot} of node {@code node}. */
  private App appOf(int node, int slot) {
    return apps.get((int) ((long) (node * podsPerNode + slot) * STRIDE % apps.size()));
  }

  static String nodeName(int node) {
    return String.format("node-%05d", node);
  }

  /** @return node {@code node} as the API server sends it */
  String nodeJson(int node) {
    var name = nodeName(node);
    var instance = "i-0" + hex(16);
    var zone = "eu-west-1" + ZONES.charAt(node % ZONES.length());
    var ip = "10.0." + (node / 250) + "." + (node % 250 + 2);
    boolean tainted = node % 10 == 9;
    var held = new LinkedHashSet<String>(SYSTEM_IMAGES);
    for (int slot = 0; slot < podsPerNode; slot++) {
      held.add(appOf(node, slot).image());
    }
    for (int slot = 0; slot < podsPerNode; slot++) {
      held.add(appOf(node, slot).previousImage());
    }
    var imageJson = new StringBuilder();
    for (var image : held) {
      if (imageJson.length() > 0) {
        imageJson.append(",\n");
      }
      var repository = image.substring(0, image.lastIndexOf(':'));
      imageJson
          .append("{\"names\":[\"")
          .append(repository)
          .append("@sha256:")
          .append(images.get(image).digest())
          .append("\",\"")
          .append(image)
          .append("\"],\"sizeBytes\":")
          .append(images.get(image).size())
          .append('}');
    }
    return NODE.fill(
        Map.ofEntries(
            Map.entry("NAME", name),
            Map.entry("UID", uuid()),
            Map.entry("RV", String.valueOf(40_000_000 + random.nextInt(10_000_000))),
            Map.entry("ZONE", zone),
            Map.entry("POOL", tainted ? "batch" : POOLS.get(node % POOLS.size())),
            Map.entry("INSTANCE", instance),
            Map.entry("IP", ip),
            Map.entry("DNS", "ip-" + ip.replace('.', '-') + ".eu-west-1.compute.internal"),
            Map.entry("CIDR", "10." + (64 + node / 256) + "." + (node % 256) + ".0/24"),
            Map.entry("TAINTS", tainted ? TAINT : ""),
            Map.entry("BOOT", uuid()),
            Map.entry("MACHINE", hex(32)),
            Map.entry("SYSTEM_UUID", uuid()),
            Map.entry("IMAGES", imageJson.toString())));
  }

  /** @return the pod in slot {@code slot} of node {@code node}, bound and running there */
  String podJson(int node, int slot) {
    var app = appOf(node, slot);
    var ip = "10." + (64 + node / 256) + "." + (node % 256) + "." + (slot + 2);
    return POD.fill(
        Map.ofEntries(
            Map.entry("NAMESPACE", app.namespace()),
            Map.entry("APP", app.name()),
            Map.entry("VERSION", app.version()),
            Map.entry("HASH", app.templateHash()),
            Map.entry("RS_UID", app.replicaSetUid()),
            Map.entry("IMAGE", app.image()),
            Map.entry("CPU", app.cpu()),
            Map.entry("MEMORY", app.memory()),
            Map.entry("MEMORY_LIMIT", app.memoryLimit()),
            Map.entry("CHECKSUM", app.configChecksum()),
            Map.entry("SUFFIX", suffix(5)),
            Map.entry("TOKEN_SUFFIX", suffix(5)),
            Map.entry("UID", uuid()),
            Map.entry("RV", String.valueOf(40_000_000 + random.nextInt(10_000_000))),
            Map.entry("NODE", nodeName(node)),
            Map.entry("HOST_IP", "10.0." + (node / 250) + "." + (node % 250 + 2)),
            Map.entry("POD_IP", ip),
            Map.entry("APP_CONTAINER_ID", hex(64)),
            Map.entry("APP_IMAGE_ID", images.get(app.image()).digest()),
            Map.entry("SIDECAR_CONTAINER_ID", hex(64)),
            Map.entry("SIDECAR_IMAGE_ID", images.get(SIDECAR_IMAGE).digest()),
            Map.entry("CREATED", timestamp()),
            Map.entry("STARTED", timestamp())));
  }

  private String hex(int digits) {
    var text = new StringBuilder(digits);
    for (int i = 0; i < digits; i++) {
      text.append(Character.forDigit(random.nextInt(16), 16));
    }
    return text.toString();
  }

  private String suffix(int length) {
    var text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(SUFFIX_ALPHABET.charAt(random.nextInt(SUFFIX_ALPHABET.length())));
    }
    return text.toString();
  }

  private String uuid() {
    return hex(8) + "-" + hex(4) + "-4" + hex(3) + "-a" + hex(3) + "-" + hex(12);
  }

  private String timestamp() {
    return String.format(
        "2026-03-%02dT%02d:%02d:%02dZ",
        1 + random.nextInt(28), random.nextInt(24), random.nextInt(60), random.nextInt(60));
  }

  /** A text with {@code ${NAME}} holes, split once so that filling it is one pass. */
  static final class Template {
    private final List<String> literals = new ArrayList<>();
    private final List<String> holes = new ArrayList<>();

    Template(String text) {
      int from = 0;
      for (int start = text.indexOf("${"); start >= 0; start = text.indexOf("${", from)) {
        int end = text.indexOf('}', start);
        literals.add(text.substring(from, start));
        holes.add(text.substring(start + 2, end));
        from = end + 1;
      }
      literals.add(text.substring(from));
    }

    /** @throws IllegalArgumentException naming the hole, if {@code values} has no value for one */
    String fill(Map<String, String> values) {
      var text = new StringBuilder(literals.stream().mapToInt(String::length).sum() + 1024);
      for (int i = 0; i < holes.size(); i++) {
        var value = values.get(holes.get(i));
        if (value == null) {
          throw new IllegalArgumentException("no value for ${" + holes.get(i) + "}");
        }
        text.append(literals.get(i)).append(value);
      }
      return text.append(literals.get(literals.size() - 1)).toString();
    }
  }

  private static final String TAINT =
      """
      ,"taints":[{"effect":"NoSchedule","key":"dedicated","value":"batch"}]""";

  private static final Template NODE =
      new Template(
          """
          {"apiVersion":"v1","kind":"Node","metadata":{
            "annotations":{
              "csi.volume.kubernetes.io/nodeid":"{\\"ebs.csi.aws.com\\":\\"${INSTANCE}\\"}",
              "node.alpha.kubernetes.io/ttl":"0",
              "volumes.kubernetes.io/controller-managed-attach-detach":"true"},
            "creationTimestamp":"2026-01-11T07:02:13Z",
            "labels":{
              "beta.kubernetes.io/arch":"amd64","beta.kubernetes.io/instance-type":"m6i.8xlarge",
              "beta.kubernetes.io/os":"linux","failure-domain.beta.kubernetes.io/region":"eu-west-1",
              "failure-domain.beta.kubernetes.io/zone":"${ZONE}","kubernetes.io/arch":"amd64",
              "kubernetes.io/hostname":"${NAME}","kubernetes.io/os":"linux",
              "node.kubernetes.io/instance-type":"m6i.8xlarge","node.kubernetes.io/pool":"${POOL}",
              "topology.kubernetes.io/region":"eu-west-1","topology.kubernetes.io/zone":"${ZONE}"},
            "managedFields":[
              {"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{
                "f:annotations":{".":{},"f:node.alpha.kubernetes.io/ttl":{},
                  "f:volumes.kubernetes.io/controller-managed-attach-detach":{}},
                "f:labels":{".":{},"f:beta.kubernetes.io/arch":{},"f:beta.kubernetes.io/os":{},
                  "f:kubernetes.io/arch":{},"f:kubernetes.io/hostname":{},"f:kubernetes.io/os":{},
                  "f:node.kubernetes.io/instance-type":{},"f:topology.kubernetes.io/region":{},
                  "f:topology.kubernetes.io/zone":{}}},
                "f:spec":{"f:providerID":{}}},
               "manager":"kubelet","operation":"Update","time":"2026-01-11T07:02:13Z"},
              {"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:status":{
                "f:allocatable":{"f:cpu":{},"f:ephemeral-storage":{},"f:memory":{}},
                "f:capacity":{"f:ephemeral-storage":{}},
                "f:conditions":{
                  "k:{\\"type\\":\\"DiskPressure\\"}":{"f:lastHeartbeatTime":{}},
                  "k:{\\"type\\":\\"MemoryPressure\\"}":{"f:lastHeartbeatTime":{}},
                  "k:{\\"type\\":\\"PIDPressure\\"}":{"f:lastHeartbeatTime":{}},
                  "k:{\\"type\\":\\"Ready\\"}":{"f:lastHeartbeatTime":{},"f:lastTransitionTime":{},
                    "f:message":{},"f:reason":{},"f:status":{}}},
                "f:images":{},"f:nodeInfo":{"f:bootID":{}}}},
               "manager":"kubelet","operation":"Update","subresource":"status","time":"2026-03-02T09:58:40Z"}],
            "name":"${NAME}","resourceVersion":"${RV}","uid":"${UID}"},
          "spec":{"podCIDR":"${CIDR}","podCIDRs":["${CIDR}"],
            "providerID":"aws:///${ZONE}/${INSTANCE}"${TAINTS}},
          "status":{
            "addresses":[{"address":"${IP}","type":"InternalIP"},{"address":"${DNS}","type":"InternalDNS"},
              {"address":"${NAME}","type":"Hostname"}],
            "allocatable":{"cpu":"31850m","ephemeral-storage":"189217404954","hugepages-1Gi":"0",
              "hugepages-2Mi":"0","memory":"127410188Ki","pods":"110"},
            "capacity":{"cpu":"32","ephemeral-storage":"209702892Ki","hugepages-1Gi":"0","hugepages-2Mi":"0",
              "memory":"130967052Ki","pods":"110"},
            "conditions":[
              {"lastHeartbeatTime":"2026-03-02T09:58:40Z","lastTransitionTime":"2026-01-11T07:02:13Z",
               "message":"kubelet has sufficient memory available","reason":"KubeletHasSufficientMemory",
               "status":"False","type":"MemoryPressure"},
              {"lastHeartbeatTime":"2026-03-02T09:58:40Z","lastTransitionTime":"2026-01-11T07:02:13Z",
               "message":"kubelet has no disk pressure","reason":"KubeletHasNoDiskPressure","status":"False",
               "type":"DiskPressure"},
              {"lastHeartbeatTime":"2026-03-02T09:58:40Z","lastTransitionTime":"2026-01-11T07:02:13Z",
               "message":"kubelet has sufficient PID available","reason":"KubeletHasSufficientPID",
               "status":"False","type":"PIDPressure"},
              {"lastHeartbeatTime":"2026-03-02T09:58:40Z","lastTransitionTime":"2026-01-11T07:02:44Z",
               "message":"kubelet is posting ready status","reason":"KubeletReady","status":"True",
               "type":"Ready"}],
            "daemonEndpoints":{"kubeletEndpoint":{"Port":10250}},
            "images":[${IMAGES}],
            "nodeInfo":{"architecture":"amd64","bootID":"${BOOT}","containerRuntimeVersion":"containerd://2.1.4",
              "kernelVersion":"6.12.20","kubeProxyVersion":"v1.37.2","kubeletVersion":"v1.37.2",
              "machineID":"${MACHINE}","operatingSystem":"linux",
              "osImage":"Bottlerocket OS 1.40.0 (aws-k8s-1.37)","systemUUID":"${SYSTEM_UUID}"},
            "runtimeHandlers":[{"features":{"recursiveReadOnlyMounts":true,"userNamespaces":true},
              "name":"runc"}]}}
          """);

  private static final Template POD =
      new Template(
          """
          {"apiVersion":"v1","kind":"Pod","metadata":{
            "annotations":{"checksum/config":"${CHECKSUM}","kubectl.kubernetes.io/default-container":"${APP}",
              "kubectl.kubernetes.io/restartedAt":"2026-03-02T09:14:27Z","prometheus.io/path":"/metrics",
              "prometheus.io/port":"9090","prometheus.io/scrape":"true"},
            "creationTimestamp":"${CREATED}","generateName":"${APP}-${HASH}-",
            "labels":{"app.kubernetes.io/component":"api","app.kubernetes.io/instance":"${APP}",
              "app.kubernetes.io/name":"${APP}","app.kubernetes.io/part-of":"${NAMESPACE}",
              "app.kubernetes.io/version":"${VERSION}","pod-template-hash":"${HASH}"},
            "managedFields":[
              {"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{
                "f:metadata":{
                  "f:annotations":{".":{},"f:checksum/config":{},"f:kubectl.kubernetes.io/default-container":{},
                    "f:kubectl.kubernetes.io/restartedAt":{},"f:prometheus.io/path":{},"f:prometheus.io/port":{},
                    "f:prometheus.io/scrape":{}},
                  "f:generateName":{},
                  "f:labels":{".":{},"f:app.kubernetes.io/component":{},"f:app.kubernetes.io/instance":{},
                    "f:app.kubernetes.io/name":{},"f:app.kubernetes.io/part-of":{},"f:app.kubernetes.io/version":{},
                    "f:pod-template-hash":{}},
                  "f:ownerReferences":{".":{},"k:{\\"uid\\":\\"${RS_UID}\\"}":{}}},
                "f:spec":{
                  "f:affinity":{".":{},"f:nodeAffinity":{".":{},"f:requiredDuringSchedulingIgnoredDuringExecution":{}},
                    "f:podAntiAffinity":{".":{},"f:preferredDuringSchedulingIgnoredDuringExecution":{}}},
                  "f:containers":{
                    "k:{\\"name\\":\\"${APP}\\"}":{".":{},
                      "f:env":{".":{},
                        "k:{\\"name\\":\\"DATABASE_URL\\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},"f:secretKeyRef":{}}},
                        "k:{\\"name\\":\\"JAVA_TOOL_OPTIONS\\"}":{".":{},"f:name":{},"f:value":{}}},
                      "f:image":{},"f:imagePullPolicy":{},
                      "f:livenessProbe":{".":{},"f:failureThreshold":{},
                        "f:httpGet":{".":{},"f:path":{},"f:port":{},"f:scheme":{}}},
                      "f:name":{},
                      "f:ports":{".":{},"k:{\\"containerPort\\":8080,\\"protocol\\":\\"TCP\\"}":{".":{},
                        "f:containerPort":{},"f:name":{},"f:protocol":{}}},
                      "f:readinessProbe":{".":{},"f:httpGet":{".":{},"f:path":{},"f:port":{}}},
                      "f:resources":{".":{},"f:limits":{".":{},"f:memory":{}},
                        "f:requests":{".":{},"f:cpu":{},"f:memory":{}}},
                      "f:volumeMounts":{".":{},"k:{\\"mountPath\\":\\"/etc/${APP}\\"}":{}}},
                    "k:{\\"name\\":\\"log-shipper\\"}":{".":{},"f:image":{},"f:name":{},
                      "f:resources":{".":{},"f:requests":{}}}},
                  "f:topologySpreadConstraints":{".":{},
                    "k:{\\"topologyKey\\":\\"topology.kubernetes.io/zone\\",\\"whenUnsatisfiable\\":\\"ScheduleAnyway\\"}":{}},
                  "f:volumes":{".":{},"k:{\\"name\\":\\"config\\"}":{},"k:{\\"name\\":\\"logs\\"}":{}}}},
               "manager":"kube-controller-manager","operation":"Update","time":"${CREATED}"},
              {"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:status":{
                "f:conditions":{
                  "k:{\\"type\\":\\"ContainersReady\\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},
                    "f:status":{},"f:type":{}},
                  "k:{\\"type\\":\\"Initialized\\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},
                    "f:status":{},"f:type":{}},
                  "k:{\\"type\\":\\"PodReadyToStartContainers\\"}":{".":{},"f:lastProbeTime":{},
                    "f:lastTransitionTime":{},"f:status":{},"f:type":{}},
                  "k:{\\"type\\":\\"Ready\\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},
                    "f:status":{},"f:type":{}}},
                "f:containerStatuses":{},"f:hostIP":{},"f:hostIPs":{},"f:phase":{},"f:podIP":{},
                "f:podIPs":{".":{},"k:{\\"ip\\":\\"${POD_IP}\\"}":{".":{},"f:ip":{}}},"f:startTime":{}}},
               "manager":"kubelet","operation":"Update","subresource":"status","time":"${STARTED}"}],
            "name":"${APP}-${HASH}-${SUFFIX}","namespace":"${NAMESPACE}",
            "ownerReferences":[{"apiVersion":"apps/v1","blockOwnerDeletion":true,"controller":true,
              "kind":"ReplicaSet","name":"${APP}-${HASH}","uid":"${RS_UID}"}],
            "resourceVersion":"${RV}","uid":"${UID}"},
          "spec":{
            "affinity":{
              "nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
                {"matchExpressions":[{"key":"node.kubernetes.io/pool","operator":"In",
                  "values":["general","services","frontend"]}]}]}},
              "podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[
                {"podAffinityTerm":{"labelSelector":{"matchLabels":{"app.kubernetes.io/name":"${APP}"}},
                  "topologyKey":"kubernetes.io/hostname"},"weight":100}]}},
            "containers":[
              {"env":[
                {"name":"JAVA_TOOL_OPTIONS","value":"-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"},
                {"name":"SPRING_PROFILES_ACTIVE","value":"production"},
                {"name":"SERVER_PORT","value":"8080"},
                {"name":"MANAGEMENT_SERVER_PORT","value":"9090"},
                {"name":"OTEL_EXPORTER_OTLP_ENDPOINT","value":"http://otel-collector.observability.svc:4317"},
                {"name":"OTEL_SERVICE_NAME","value":"${APP}"},
                {"name":"POD_NAME","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}},
                {"name":"POD_IP","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"status.podIP"}}},
                {"name":"DATABASE_URL","valueFrom":{"secretKeyRef":{"key":"url","name":"${APP}-db"}}}],
               "envFrom":[{"configMapRef":{"name":"${APP}-env"}}],
               "image":"${IMAGE}","imagePullPolicy":"IfNotPresent",
               "livenessProbe":{"failureThreshold":3,"httpGet":{"path":"/actuator/health/liveness","port":9090,
                 "scheme":"HTTP"},"initialDelaySeconds":30,"periodSeconds":10,"successThreshold":1,
                 "timeoutSeconds":2},
               "name":"${APP}",
               "ports":[{"containerPort":8080,"name":"http","protocol":"TCP"},
                 {"containerPort":9090,"name":"management","protocol":"TCP"}],
               "readinessProbe":{"failureThreshold":3,"httpGet":{"path":"/actuator/health/readiness","port":9090,
                 "scheme":"HTTP"},"periodSeconds":5,"successThreshold":1,"timeoutSeconds":1},
               "resources":{"limits":{"memory":"${MEMORY_LIMIT}"},"requests":{"cpu":"${CPU}","memory":"${MEMORY}"}},
               "securityContext":{"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]},
                 "readOnlyRootFilesystem":true,"runAsNonRoot":true},
               "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",
               "volumeMounts":[{"mountPath":"/etc/${APP}","name":"config","readOnly":true},
                 {"mountPath":"/var/log/${APP}","name":"logs"},
                 {"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-${TOKEN_SUFFIX}",
                  "readOnly":true}]},
              {"args":["--config=/etc/fluent-bit/fluent-bit.conf"],
               "image":"registry.example.com/infra/fluent-bit:3.2.4","imagePullPolicy":"IfNotPresent",
               "name":"log-shipper",
               "resources":{"limits":{"memory":"128Mi"},"requests":{"cpu":"20m","memory":"64Mi"}},
               "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",
               "volumeMounts":[{"mountPath":"/var/log/${APP}","name":"logs","readOnly":true},
                 {"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-${TOKEN_SUFFIX}",
                  "readOnly":true}]}],
            "dnsPolicy":"ClusterFirst","enableServiceLinks":true,"nodeName":"${NODE}",
            "preemptionPolicy":"PreemptLowerPriority","priority":0,"restartPolicy":"Always",
            "schedulerName":"default-scheduler","securityContext":{"fsGroup":1000,"runAsUser":1000},
            "serviceAccount":"${APP}","serviceAccountName":"${APP}","terminationGracePeriodSeconds":30,
            "tolerations":[
              {"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},
              {"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists",
               "tolerationSeconds":300}],
            "topologySpreadConstraints":[{"labelSelector":{"matchLabels":{"app.kubernetes.io/name":"${APP}"}},
              "maxSkew":1,"topologyKey":"topology.kubernetes.io/zone","whenUnsatisfiable":"ScheduleAnyway"}],
            "volumes":[
              {"configMap":{"defaultMode":420,"name":"${APP}-config"},"name":"config"},
              {"emptyDir":{},"name":"logs"},
              {"name":"kube-api-access-${TOKEN_SUFFIX}","projected":{"defaultMode":420,"sources":[
                {"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},
                {"configMap":{"items":[{"key":"ca.crt","path":"ca.crt"}],"name":"kube-root-ca.crt"}},
                {"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"},
                  "path":"namespace"}]}}]}}]},
          "status":{
            "conditions":[
              {"lastProbeTime":null,"lastTransitionTime":"${STARTED}","status":"True",
               "type":"PodReadyToStartContainers"},
              {"lastProbeTime":null,"lastTransitionTime":"${CREATED}","status":"True","type":"Initialized"},
              {"lastProbeTime":null,"lastTransitionTime":"${STARTED}","status":"True","type":"Ready"},
              {"lastProbeTime":null,"lastTransitionTime":"${STARTED}","status":"True","type":"ContainersReady"},
              {"lastProbeTime":null,"lastTransitionTime":"${CREATED}","status":"True","type":"PodScheduled"}],
            "containerStatuses":[
              {"containerID":"containerd://${APP_CONTAINER_ID}","image":"${IMAGE}",
               "imageID":"registry.example.com/${NAMESPACE}/${APP}@sha256:${APP_IMAGE_ID}","lastState":{},
               "name":"${APP}","ready":true,"restartCount":0,"started":true,
               "state":{"running":{"startedAt":"${STARTED}"}},
               "volumeMounts":[
                 {"mountPath":"/etc/${APP}","name":"config","readOnly":true,"recursiveReadOnly":"Disabled"},
                 {"mountPath":"/var/log/${APP}","name":"logs"},
                 {"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount",
                  "name":"kube-api-access-${TOKEN_SUFFIX}","readOnly":true,"recursiveReadOnly":"Disabled"}]},
              {"containerID":"containerd://${SIDECAR_CONTAINER_ID}",
               "image":"registry.example.com/infra/fluent-bit:3.2.4",
               "imageID":"registry.example.com/infra/fluent-bit@sha256:${SIDECAR_IMAGE_ID}","lastState":{},
               "name":"log-shipper","ready":true,"restartCount":0,"started":true,
               "state":{"running":{"startedAt":"${STARTED}"}}}],
            "hostIP":"${HOST_IP}","hostIPs":[{"ip":"${HOST_IP}"}],"phase":"Running","podIP":"${POD_IP}",
            "podIPs":[{"ip":"${POD_IP}"}],"qosClass":"Burstable","startTime":"${CREATED}"}}
          """);
}
