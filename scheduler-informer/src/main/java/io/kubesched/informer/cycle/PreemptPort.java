package io.kubesched.informer.cycle;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.api.PodInfo;
import io.kubesched.binder.Preempter;
import io.kubesched.binder.TokenBucket;
import io.kubesched.binder.VictimOutcome;

/**
 * Where the {@link PreemptionCycle} evicts victims and clears nominations (kube-scheduler's preemption
 * executor API calls): {@link #toApiServer} in production, a fake in the loop's unit tests. Called on a
 * preemption thread, several at once.
 */
public interface PreemptPort {

  /**
   * Marks {@code victim} with the {@code DisruptionTarget} condition and deletes it, on the condition that it
   * still has its uid (a pod re-created under the same name is never deleted).
   *
   * @param conditionMessage the condition's message
   * @return how it ended; every expected case is a value, none an exception
   * @throws InterruptedException if the thread is interrupted (the loop is closing)
   */
  VictimOutcome preempt(PodInfo victim, String conditionMessage) throws InterruptedException;

  /**
   * Removes {@code status.nominatedNodeName} from {@code pod}.
   *
   * @return whether it was written
   * @throws InterruptedException if the thread is interrupted (the loop is closing)
   */
  boolean clearNomination(PodInfo pod) throws InterruptedException;

  /** @return the port that writes through a {@link Preempter}, each write taking a token of {@code writes} */
  static PreemptPort toApiServer(KubernetesClient client, TokenBucket writes) {
    var preempter = new Preempter(client, writes);
    return new PreemptPort() {
      @Override
      public VictimOutcome preempt(PodInfo victim, String conditionMessage) throws InterruptedException {
        return preempter.preempt(reference(victim), conditionMessage);
      }

      @Override
      public boolean clearNomination(PodInfo pod) throws InterruptedException {
        return preempter.clearNomination(
            new PodBuilder(reference(pod)).withNewStatus().withNominatedNodeName(pod.nominatedNodeName()).endStatus()
                .build());
      }
    };
  }

  /** The object the binder names a pod by: namespace, name and uid are all its writes read. */
  static Pod reference(PodInfo pod) {
    return new PodBuilder()
        .withApiVersion("v1")
        .withKind("Pod")
        .withNewMetadata()
        .withNamespace(pod.namespace())
        .withName(pod.name())
        .withUid(pod.uid())
        .endMetadata()
        .build();
  }
}
