package io.kubesched.benchmarks;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.adapter.DynamicResourceAdapter;
import io.kubesched.engine.DeviceCache;
import io.kubesched.informer.watch.InformerStores;
import java.io.PrintStream;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * How much heap the dynamic resource allocation informers take per 1 000 ResourceSlices and per 1 000
 * ResourceClaims: what the informer's store keeps of each object ({@link InformerStores#nameOnly}, as {@code
 * ClusterDataInformers} keeps it) plus its record in the {@link DeviceCache}, against fabric8's default store of whole objects. A command-line
 * tool: {@code java -cp benchmarks.jar io.kubesched.benchmarks.DeviceHeapMeasurement [slices] [claims]}
 * (defaults 5000 and 5000); each slice has 8 devices of 4 attributes and 2 capacities, each claim one request,
 * an allocation of one device and one pod in {@code reservedFor}, as a running cluster's claims are. Measured as
 * {@link HeapMeasurement} measures: heap in use after full collections, filled minus empty, median of 3 rounds.
 */
public final class DeviceHeapMeasurement {

  private static final double MB = 1024.0 * 1024.0;
  private static final int ROUNDS = 3;

  private final KubernetesSerialization serialization = new KubernetesSerialization();

  /** @param args the number of slices and of claims, each optional */
  public static void main(String[] args) {
    int slices = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
    int claims = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
    new DeviceHeapMeasurement().run(slices, claims, System.out);
  }

  void run(int slices, int claims, PrintStream out) {
    fillSlices(slices / 10, true);
    fillClaims(claims / 10, true);
    var kept = new ArrayList<Long>();
    var whole = new ArrayList<Long>();
    var keptClaims = new ArrayList<Long>();
    var wholeClaims = new ArrayList<Long>();
    for (int round = 0; round < ROUNDS; round++) {
      kept.add(fillSlices(slices, true));
      whole.add(fillSlices(slices, false));
      keptClaims.add(fillClaims(claims, true));
      wholeClaims.add(fillClaims(claims, false));
    }
    out.println("| objects | store | MB per 1 000 |");
    out.println("| --- | --- | ---: |");
    out.printf(Locale.ROOT, "| ResourceSlices (8 devices, 4 attributes, 2 capacities) | name-only store + DeviceCache"
        + " record | %.2f |%n", median(kept) / MB / (slices / 1000.0));
    out.printf(Locale.ROOT, "| ResourceSlices | fabric8 default store (whole objects) | %.2f |%n",
        median(whole) / MB / (slices / 1000.0));
    out.printf(Locale.ROOT, "| ResourceClaims (1 request, allocated, 1 consumer) | name-only store + DeviceCache"
        + " record | %.2f |%n", median(keptClaims) / MB / (claims / 1000.0));
    out.printf(Locale.ROOT, "| ResourceClaims | fabric8 default store (whole objects) | %.2f |%n",
        median(wholeClaims) / MB / (claims / 1000.0));
  }

  /** @return the bytes retained by {@code count} slices, kept as the informers keep them or whole */
  long fillSlices(int count, boolean asKept) {
    return fill(count, asKept, this::sliceJson, ResourceSlice.class, ResourceSlice::new,
        (cache, slice) -> cache.putSlice(DynamicResourceAdapter.slice(slice)));
  }

  /** @return the bytes retained by {@code count} claims, kept as the informers keep them or whole */
  long fillClaims(int count, boolean asKept) {
    return fill(count, asKept, this::claimJson, ResourceClaim.class, ResourceClaim::new,
        (cache, claim) -> cache.putClaim(DynamicResourceAdapter.claim(claim)));
  }

  private interface Put<T> {
    void into(DeviceCache cache, T object);
  }

  private <T extends HasMetadata> long fill(
      int count,
      boolean asKept,
      java.util.function.IntFunction<String> json,
      Class<T> type,
      Supplier<T> empty,
      Put<T> put) {
    long before = HeapMeasurement.usedAfterGc();
    var devices = new DeviceCache();
    var store = new CacheImpl<T>();
    ItemStore<T> itemStore =
        asKept
            ? InformerStores.nameOnly(empty)
            : new BasicItemStore<>(Cache::metaNamespaceKeyFunc);
    store.setItemStore(itemStore);
    for (int i = 0; i < count; i++) {
      var object = serialization.unmarshal(json.apply(i), type);
      store.put(object);
      if (asKept) {
        put.into(devices, object);
      }
    }
    if (asKept) {
      devices.dynamicResources(); // the view every decision reads, built once
    }
    long after = HeapMeasurement.usedAfterGc();
    Reference.reachabilityFence(store);
    Reference.reachabilityFence(devices);
    return after - before;
  }

  String sliceJson(int i) {
    var devices = new ArrayList<String>();
    for (int d = 0; d < 8; d++) {
      devices.add(("{\"name\": \"gpu-%d\", \"attributes\": {\"model\": {\"string\": \"a100\"}, \"index\": {\"int\": %d},"
          + " \"driverVersion\": {\"version\": \"1.2.3\"}, \"gpu.example.com/mig\": {\"bool\": false}},"
          + " \"capacity\": {\"memory\": {\"value\": \"80Gi\"}, \"cores\": {\"value\": \"108\"}}}").formatted(d, d));
    }
    return ("{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceSlice\", \"metadata\": {\"name\": \"node-%d-gpu\","
        + " \"uid\": \"%s\", \"resourceVersion\": \"%d\", \"generateName\": \"node-%d-\", \"ownerReferences\":"
        + " [{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"name\": \"node-%d\", \"uid\": \"%s\", \"controller\": true}]},"
        + " \"spec\": {\"driver\": \"gpu.example.com\", \"nodeName\": \"node-%d\", \"pool\": {\"name\": \"node-%d\","
        + " \"generation\": 1, \"resourceSliceCount\": 1}, \"devices\": [%s]}}")
        .formatted(i, uid(i), 1000 + i, i, i, uid(i + 1_000_000), i, i, String.join(", ", devices));
  }

  String claimJson(int i) {
    return ("{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceClaim\", \"metadata\": {\"namespace\": \"ml\","
        + " \"name\": \"trainer-%d-gpu-x7k2p\", \"uid\": \"%s\", \"resourceVersion\": \"%d\", \"annotations\":"
        + " {\"resource.kubernetes.io/pod-claim-name\": \"gpu\"}, \"ownerReferences\": [{\"apiVersion\": \"v1\","
        + " \"kind\": \"Pod\", \"name\": \"trainer-%d\", \"uid\": \"%s\", \"controller\": true,"
        + " \"blockOwnerDeletion\": true}]},"
        + " \"spec\": {\"devices\": {\"requests\": [{\"name\": \"gpu\", \"exactly\": {\"deviceClassName\": \"gpu.example.com\","
        + " \"allocationMode\": \"ExactCount\", \"count\": 1}}]}},"
        + " \"status\": {\"allocation\": {\"devices\": {\"results\": [{\"request\": \"gpu\", \"driver\": \"gpu.example.com\","
        + " \"pool\": \"node-%d\", \"device\": \"gpu-%d\"}]}, \"nodeSelector\": {\"nodeSelectorTerms\": [{\"matchFields\":"
        + " [{\"key\": \"metadata.name\", \"operator\": \"In\", \"values\": [\"node-%d\"]}]}]}},"
        + " \"reservedFor\": [{\"resource\": \"pods\", \"name\": \"trainer-%d\", \"uid\": \"%s\"}]}}")
        .formatted(i, uid(i), 5000 + i, i, uid(i + 2_000_000), i / 8, i % 8, i / 8, i, uid(i + 2_000_000));
  }

  private static String uid(int i) {
    return "%08x-0000-4000-8000-%012x".formatted(i, i);
  }

  private static long median(List<Long> values) {
    var sorted = values.stream().sorted().toList();
    return sorted.get(sorted.size() / 2);
  }
}
