package io.kubesched.samples.josdk;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.kubesched.samples.josdk.BatchJobStatus.Phase;
import java.net.HttpURLConnection;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link BatchJob}: creates its missing worker pods (owned by it, labelled with its team and name, placed by
 * the embedded scheduler), deletes workers beyond its count, and writes back in its status how many workers are
 * bound and to which nodes. Reconciles again whenever one of its workers changes (an informer on the pods labelled
 * {@value Workers#JOB_LABEL}, mapped to their owner), so a binding shows in the status as soon as the watch shows
 * it. A spec that cannot be run gets phase {@code Invalid} and a message naming the field and value; nothing is
 * created for it, and the workers it had before the change are left as they are.
 *
 * <p>Pods are immutable: a changed {@code cpu}, {@code memory} or {@code image} applies to workers created after
 * the change only. Called by java-operator-sdk, never concurrently for one job.
 */
@ControllerConfiguration(name = BatchJobReconciler.NAME)
public final class BatchJobReconciler implements Reconciler<BatchJob> {

  /** The controller's name, as java-operator-sdk logs it. */
  public static final String NAME = "batchjob";

  private static final Logger LOG = LoggerFactory.getLogger(BatchJobReconciler.class);

  private final String schedulerName;

  /** @param schedulerName the {@code spec.schedulerName} of the workers: the embedded scheduler's name */
  public BatchJobReconciler(String schedulerName) {
    this.schedulerName = Objects.requireNonNull(schedulerName, "schedulerName");
  }

  @Override
  public List<EventSource<?, BatchJob>> prepareEventSources(EventSourceContext<BatchJob> context) {
    var workers = InformerEventSourceConfiguration.from(Pod.class, BatchJob.class)
        .withLabelSelector(Workers.JOB_LABEL)
        .build();
    return List.of(new InformerEventSource<>(workers, context));
  }

  @Override
  public UpdateControl<BatchJob> reconcile(BatchJob job, Context<BatchJob> context) {
    BatchJobStatus status;
    var checked = Workers.check(job);
    if (checked instanceof Workers.Valid valid) {
      status = run(job, valid.workers(), context);
    } else {
      var message = ((Workers.Invalid) checked).message();
      LOG.warn("BatchJob {}/{} is invalid: {}", job.getMetadata().getNamespace(), job.getMetadata().getName(),
          message);
      status = new BatchJobStatus(Phase.INVALID, 0, Map.of(), message, job.getMetadata().getGeneration());
    }
    if (status.equals(job.getStatus())) {
      return UpdateControl.noUpdate();
    }
    return UpdateControl.patchStatus(statusPatch(job, status));
  }

  /**
   * The server-side apply patch of the status: the job's name and namespace and the status only, so the reconciler
   * owns nothing else and no resource version makes a patch from a cache a step behind fail with a conflict.
   */
  static BatchJob statusPatch(BatchJob job, BatchJobStatus status) {
    var patch = new BatchJob();
    patch.setMetadata(new ObjectMetaBuilder()
        .withName(job.getMetadata().getName())
        .withNamespace(job.getMetadata().getNamespace())
        .build());
    patch.setStatus(status);
    return patch;
  }

  private BatchJobStatus run(BatchJob job, Workers workers, Context<BatchJob> context) {
    var existing = new HashMap<String, Pod>();
    for (var pod : context.getSecondaryResources(Pod.class)) {
      existing.put(pod.getMetadata().getName(), pod);
    }
    var wanted = new HashSet<>(workers.podNames());
    var pods = context.getClient().pods().inNamespace(job.getMetadata().getNamespace());
    for (int i = 0; i < workers.count(); i++) {
      if (!existing.containsKey(workers.podName(i))) {
        create(pods, workers.pod(job, i, schedulerName));
      }
    }
    for (var name : existing.keySet()) {
      if (!wanted.contains(name)) {
        LOG.info("Deleting worker {}/{}: beyond spec.workers {}", job.getMetadata().getNamespace(), name,
            workers.count());
        pods.withName(name).delete();
      }
    }
    var current = existing.entrySet().stream().filter(e -> wanted.contains(e.getKey())).map(Map.Entry::getValue)
        .toList();
    return statusOf(workers, current, job.getMetadata().getGeneration());
  }

  /** Creates a worker; one the cache did not show yet may exist already, which is what was wanted. */
  private static void create(NonNamespaceOperation<Pod, PodList, PodResource> pods, Pod pod) {
    try {
      pods.resource(pod).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      LOG.debug("Worker {} exists already", pod.getMetadata().getName());
    }
  }

  /**
   * The status of a job's workers as the watch shows them: placed once {@code spec.nodeName} is set.
   *
   * @param workers the job's workers as its spec asks for them
   * @param pods those of its worker pods that exist
   * @param generation the job's generation
   */
  static BatchJobStatus statusOf(Workers workers, Collection<Pod> pods, @Nullable Long generation) {
    var nodes = new HashMap<String, String>();
    for (var pod : pods) {
      var node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
      if (node != null && !node.isEmpty()) {
        nodes.put(pod.getMetadata().getName(), node);
      }
    }
    int placed = nodes.size();
    if (placed == workers.count()) {
      var distinct = new HashSet<>(nodes.values()).size();
      return new BatchJobStatus(Phase.PLACED, placed, nodes,
          placed + " of " + workers.count() + " workers placed on " + distinct + (distinct == 1 ? " node" : " nodes"),
          generation);
    }
    var message = placed + " of " + workers.count() + " workers placed"
        + waitingReason(pods).map(reason -> "; " + reason).orElse("");
    return new BatchJobStatus(Phase.PENDING, placed, nodes, message, generation);
  }

  /** @return why the first waiting worker (by name) waits, as the scheduler's PodScheduled condition says */
  private static Optional<String> waitingReason(Collection<Pod> pods) {
    return pods.stream()
        .filter(p -> p.getStatus() != null && p.getStatus().getConditions() != null)
        .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
        .flatMap(p -> p.getStatus().getConditions().stream()
            .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus())
                && c.getMessage() != null)
            .map((PodCondition c) -> p.getMetadata().getName() + ": " + c.getMessage()))
        .findFirst();
  }
}
