package io.kubesched.informer.watch;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kubesched.adapter.PodGroupAdapter;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.binder.ApiRequests;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code PodGroup} objects of the wanted {@linkplain PodGroupRef.Source sources}, watched in all
 * namespaces and kept as {@link PodGroup}s.
 *
 * <p><b>Discovery.</b> {@link #start} asks the API server, once per wanted source, whether it serves {@code
 * podgroups} in the source's API version ({@code /apis/scheduling.k8s.io/v1beta1}, {@code
 * /apis/scheduling.x-k8s.io/v1alpha1}). A source that is not served is logged with one WARN naming it and
 * the missing API, gets no informer and is never asked about again: {@link #serves} answers {@code false} for
 * it for the life of this object (for coscheduling the loop then schedules labelled pods one by one, as
 * without the plugin). A served source gets an informer on {@code GenericKubernetesResource}s of that API.
 *
 * <p><b>Objects.</b> A readable object is kept as the {@link PodGroup} {@link PodGroupAdapter} reads; one
 * that cannot be read is kept as the adapter's message ({@link #invalid}), logged at WARN once per message,
 * and is absent from {@link #group}. The informers' own stores keep of each object only metadata and
 * {@code spec} (not its status, which the scheduler writes and never reads back).
 *
 * <p><b>Threads.</b> Thread-safe: the queries read a concurrent map that the informers' threads write. The
 * {@link Listener} is called on an informer's thread after that map is updated, for one object's events in
 * the order the server sent them. {@link #start} and {@link #close} are called by the loop's lifecycle, one
 * thread at a time.
 */
public final class PodGroupSources implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PodGroupSources.class);

  /** The resource both APIs serve pod groups as. */
  static final String RESOURCE = "podgroups";

  /** Hears of pod group objects added, changed or deleted. */
  public interface Listener {
    /** Hears nothing. */
    Listener NONE = (ref, before, after) -> {};

    /**
     * Called on an informer's thread for every add, update and delete of a group object, after {@link
     * PodGroupSources#group} and {@link PodGroupSources#invalid} answer with the new state.
     *
     * @param ref the group
     * @param before the group as it was readable before; {@code null} if it was unknown or unreadable
     * @param after the group as it is readable now; {@code null} if it was deleted or cannot be read (then
     *     {@link PodGroupSources#invalid} says why). Both are {@code null} for an unreadable object changed or
     *     deleted.
     */
    void changed(PodGroupRef ref, @Nullable PodGroup before, @Nullable PodGroup after);
  }

  /** What is known of one group object: readable, or the reason it is not. */
  private sealed interface Known {
    record Readable(PodGroup group) implements Known {}

    record Unreadable(String message) implements Known {}
  }

  private final KubernetesClient client;
  private final Set<PodGroupRef.Source> wanted;
  private final Listener listener;
  private final Map<PodGroupRef, Known> known = new ConcurrentHashMap<>();
  private final Map<PodGroupRef, String> warned = new ConcurrentHashMap<>();
  private volatile Set<PodGroupRef.Source> served = Set.of();
  private volatile Map<PodGroupRef.Source, SharedIndexInformer<GenericKubernetesResource>> informers = Map.of();

  /**
   * @param client the client to discover and watch with; not closed here
   * @param wanted the sources to watch where the server serves them; none for an empty set
   * @param listener hears of every change, on an informer's thread; must not block
   */
  public PodGroupSources(KubernetesClient client, Set<PodGroupRef.Source> wanted, Listener listener) {
    this.client = client;
    this.wanted = wanted.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(wanted));
    this.listener = listener;
  }

  /**
   * Discovers which wanted sources the server serves and starts an informer for each, without waiting for
   * their first list ({@link #hasSynced}). Call once.
   *
   * @throws io.fabric8.kubernetes.client.KubernetesClientException if discovery fails otherwise than with
   *     "not found" (the server unreachable, access refused): the informers already started are stopped
   */
  public void start() {
    var servedNow = EnumSet.noneOf(PodGroupRef.Source.class);
    var started = new EnumMap<PodGroupRef.Source, SharedIndexInformer<GenericKubernetesResource>>(PodGroupRef.Source.class);
    try {
      for (var source : PodGroupRef.Source.values()) {
        if (!wanted.contains(source)) {
          continue;
        }
        if (!discover(source)) {
          LOG.warn(
              "Pod groups of {} are not watched: the API server does not serve {} {} ({}); {}",
              source,
              source.apiVersion(),
              RESOURCE,
              switch (source) {
                case WORKLOAD_API -> "it needs --feature-gates=GenericWorkload=true and "
                    + "--runtime-config=scheduling.k8s.io/v1beta1=true";
                case COSCHEDULING -> "the scheduler-plugins PodGroup CRD is not installed";
              },
              "pods that name such a group are scheduled one by one");
          continue;
        }
        servedNow.add(source);
        started.put(source, inform(source));
      }
    } catch (RuntimeException e) {
      started.values().forEach(SharedIndexInformer::stop);
      throw e;
    }
    served = Set.copyOf(servedNow);
    informers = Map.copyOf(started);
  }

  /**
   * @return whether every informer has listed its objects once and each object listed has reached {@link #group}
   *     or {@link #invalid} (the handler runs after the store is filled); true when there are no informers
   */
  public boolean hasSynced() {
    for (var entry : informers.entrySet()) {
      var informer = entry.getValue();
      if (!informer.hasSynced()) {
        return false;
      }
      for (var object : informer.getStore().list()) {
        var ref = ref(entry.getKey(), object.getMetadata());
        if (ref != null && !known.containsKey(ref)) {
          return false;
        }
      }
    }
    return true;
  }

  /** @return whether {@code source} is watched: wanted and served, as {@link #start} found */
  public boolean serves(PodGroupRef.Source source) {
    return served.contains(source);
  }

  /** @return the sources watched: wanted and served, as {@link #start} found */
  public Set<PodGroupRef.Source> served() {
    return served;
  }

  /** @return every readable group known, as last read, ordered by source, namespace and name */
  public List<PodGroup> groups() {
    var groups = new ArrayList<PodGroup>();
    for (var entry : known.values()) {
      if (entry instanceof Known.Readable readable) {
        groups.add(readable.group());
      }
    }
    groups.sort(Comparator.comparing((PodGroup g) -> g.ref().source()).thenComparing(PodGroup::key));
    return List.copyOf(groups);
  }

  /** @return the group {@code ref} names, as last read; {@code null} if unknown, deleted or unreadable */
  public @Nullable PodGroup group(PodGroupRef ref) {
    return known.get(ref) instanceof Known.Readable readable ? readable.group() : null;
  }

  /**
   * @return why the object {@code ref} names cannot be read (the adapter's message naming object, field and
   *     value); {@code null} if it can be, or is unknown
   */
  public @Nullable String invalid(PodGroupRef ref) {
    return known.get(ref) instanceof Known.Unreadable unreadable ? unreadable.message() : null;
  }

  /** @return how many readable groups are known */
  int size() {
    int size = 0;
    for (var entry : known.values()) {
      if (entry instanceof Known.Readable) {
        size++;
      }
    }
    return size;
  }

  /** Stops the informers. Idempotent; the groups known stay readable. */
  @Override
  public void close() {
    informers.values().forEach(SharedIndexInformer::stop);
  }

  /** @return whether the server lists {@value #RESOURCE} in the source's API version */
  private boolean discover(PodGroupRef.Source source) {
    var resources = client.getApiResources(source.apiVersion()); // null where the server answers 404
    if (resources == null || resources.getResources() == null) {
      return false;
    }
    return resources.getResources().stream().anyMatch(r -> r != null && RESOURCE.equals(r.getName()));
  }

  private SharedIndexInformer<GenericKubernetesResource> inform(PodGroupRef.Source source) {
    var apiVersion = source.apiVersion();
    var slash = apiVersion.indexOf('/');
    var context =
        new ResourceDefinitionContext.Builder()
            .withGroup(apiVersion.substring(0, slash))
            .withVersion(apiVersion.substring(slash + 1))
            .withKind(PodGroupAdapter.KIND)
            .withPlural(RESOURCE)
            .withNamespaced(true)
            .build();
    var informer =
        client
            .genericKubernetesResources(context)
            .inAnyNamespace()
            .withLimit(InformerSet.LIST_PAGE)
            .runnableInformer(0);
    informer.itemStore(InformerStores.keeping(PodGroupSources::kept));
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(GenericKubernetesResource object) {
            put(source, object);
          }

          @Override
          public void onUpdate(GenericKubernetesResource oldObject, GenericKubernetesResource object) {
            put(source, object);
          }

          @Override
          public void onDelete(GenericKubernetesResource object, boolean deletedFinalStateUnknown) {
            remove(source, object);
          }
        });
    informer.start()
        .whenComplete(
            (ignored, error) -> {
              if (error != null) {
                LOG.warn("Listing {} {} failed: {}", apiVersion, RESOURCE, ApiRequests.describeFailure(error));
              }
            });
    return informer;
  }

  private void put(PodGroupRef.Source source, GenericKubernetesResource object) {
    var ref = ref(source, object.getMetadata());
    if (ref == null) {
      return; // the server never sends an object without namespace and name
    }
    Known now;
    try {
      now = new Known.Readable(PodGroupAdapter.toPodGroup(source, object));
      warned.remove(ref);
    } catch (MalformedObjectException e) {
      now = new Known.Unreadable(e.getMessage());
      if (!e.getMessage().equals(warned.put(ref, e.getMessage()))) {
        LOG.warn("{} cannot be read; its members wait until it can: {}", ref, e.getMessage());
      }
    }
    var before = known.put(ref, now);
    listener.changed(ref, readable(before), readable(now));
  }

  private void remove(PodGroupRef.Source source, GenericKubernetesResource object) {
    var ref = ref(source, object.getMetadata());
    if (ref == null) {
      return;
    }
    warned.remove(ref);
    var before = known.remove(ref);
    listener.changed(ref, readable(before), null);
  }

  private static @Nullable PodGroup readable(@Nullable Known known) {
    return known instanceof Known.Readable readable ? readable.group() : null;
  }

  private static @Nullable PodGroupRef ref(PodGroupRef.Source source, @Nullable ObjectMeta meta) {
    if (meta == null
        || meta.getNamespace() == null
        || meta.getNamespace().isBlank()
        || meta.getName() == null
        || meta.getName().isBlank()) {
      return null;
    }
    return new PodGroupRef(source, meta.getNamespace(), meta.getName());
  }

  /** Of an object, what the adapter reads: type, metadata without managed fields and annotations, spec. */
  private static GenericKubernetesResource kept(GenericKubernetesResource object) {
    var kept = new GenericKubernetesResource();
    kept.setApiVersion(object.getApiVersion());
    kept.setKind(object.getKind());
    var meta = object.getMetadata();
    if (meta != null) {
      kept.setMetadata(
          new ObjectMetaBuilder()
              .withNamespace(meta.getNamespace())
              .withName(meta.getName())
              .withUid(meta.getUid())
              .withResourceVersion(meta.getResourceVersion())
              .withGeneration(meta.getGeneration())
              .withCreationTimestamp(meta.getCreationTimestamp())
              .build());
    }
    var extras = new HashMap<String, Object>();
    var spec = object.getAdditionalProperties() == null ? null : object.getAdditionalProperties().get("spec");
    if (spec != null) {
      extras.put("spec", spec);
    }
    kept.setAdditionalProperties(extras);
    return kept;
  }
}
