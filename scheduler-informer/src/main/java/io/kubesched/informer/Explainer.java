package io.kubesched.informer;

import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.adapter.PodAdapter;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import io.kubesched.engine.UnsupportedFeatures;
import io.kubesched.informer.cycle.PendingPodLookup;
import io.kubesched.informer.cycle.PodGroupLookup;
import io.kubesched.informer.cycle.Profiles;
import io.kubesched.policy.GroupPlacement;
import io.kubesched.policy.Policy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * Explains a pod as the loop's next attempt of it would see it: it reads what {@code SchedulingCycle} and
 * {@code GroupCycle} read at the start of an attempt (the pod's profile as it is now, the cache's nodes with the
 * assumed pods, the queue's nominations, the pod group and its pending members) and asks the profile's {@link
 * Policy} to explain instead of to decide. Nothing is taken off the queue, assumed or reported.
 *
 * <p>Thread-safe: any thread, while the loop runs. The locks it takes are the queue's and the cache's, each for
 * a read of one pod or one group's members; the policy's work runs on the calling thread, holding none
 * ({@link Policy#explain} moves no round-robin index, so the next decision is the one explained).
 */
final class Explainer {

  private final Profiles profiles;
  private final SchedulingQueue queue;
  private final SchedulerCache cache;
  private final BiFunction<List<NodeInfo>, Nominations, ClusterSnapshot> snapshots;
  private final PendingPodLookup pending;
  private final PodGroupLookup groups;

  Explainer(
      Profiles profiles,
      SchedulingQueue queue,
      SchedulerCache cache,
      BiFunction<List<NodeInfo>, Nominations, ClusterSnapshot> snapshots,
      PendingPodLookup pending,
      PodGroupLookup groups) {
    this.profiles = profiles;
    this.queue = queue;
    this.cache = cache;
    this.snapshots = snapshots;
    this.pending = pending;
    this.groups = groups;
  }

  /**
   * @param pod the pod as the informers' store holds it
   * @return its explanation; null if no profile of the loop schedules it
   */
  @Nullable LoopExplanation explain(Pod pod) {
    var metadata = pod.getMetadata();
    var key = metadata.getNamespace() + "/" + metadata.getName();
    var profileName = PodAdapter.schedulerName(pod);
    var profile = profiles.get(profileName);
    if (profile == null) {
      return null;
    }
    var uid = metadata.getUid();
    var nodeName = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    if (nodeName != null && !nodeName.isEmpty()) {
      return LoopExplanation.unexplained(
          key, profileName, List.of(),
          "it is bound to node " + nodeName + "; only a pod waiting for a node is explained");
    }
    var assumed = cache.isAssumed(uid) ? cache.pod(uid) : null;
    if (assumed != null) {
      return LoopExplanation.unexplained(
          key, profileName, List.of(),
          "it is being bound to node " + assumed.nodeName() + ", which a decision chose; only a pod waiting for a"
              + " node is explained");
    }
    var kept = pending.pendingPod(uid);
    if (kept == null) {
      return LoopExplanation.unexplained(
          key, profileName, List.of(),
          metadata.getDeletionTimestamp() != null
              ? "it is being deleted: it will not be scheduled"
              : "it is not in this scheduler's queue (just created or changed: try again in a moment)");
    }
    PodInfo info;
    try {
      info = PodAdapter.toPodInfo(kept);
    } catch (MalformedObjectException e) {
      return LoopExplanation.unexplained(
          key, profileName, List.of(), "it cannot be read, so it is not tried until it changes: " + e.getMessage());
    }
    var notes = new ArrayList<String>();
    if (!info.schedulingGates().isEmpty()) {
      notes.add(
          "scheduling gates " + info.schedulingGates() + " hold it: it is not tried until the last is removed");
    }
    var nominations = queue.nominations();
    var nominated = nominations.nodeOf(uid);
    if (!nominated.equals(info.nominatedNodeName())) {
      info = info.toBuilder().nominatedNodeName(nominated).build();
    }
    if (!nominated.isEmpty()) {
      notes.add("preemption nominated it to node " + nominated + ", where room is held for it");
    }
    if (!(profile.finder() instanceof Policy policy)) {
      return LoopExplanation.unexplained(
          key, profileName, notes,
          "the policy of profile " + profileName + " is a plain FinderFunc (" + profile.finder()
              + "), not a Policy: it decides without saying why per node and plugin");
    }
    var ref = info.podGroupRef();
    if (ref != null && groups.honours(ref.source())) {
      return explainGroup(key, profileName, notes, ref, policy, profile.reads(), nominations);
    }
    var refusal = UnsupportedFeatures.refusal(info, profile.reads());
    if (refusal.isPresent()) {
      return LoopExplanation.unexplained(
          key, profileName, notes, "it is refused before the policy sees it: " + refusal.get());
    }
    try {
      var explanation = policy.explain(info, snapshots.apply(cache.nodes(), nominations));
      return new LoopExplanation(key, profileName, notes, explanation, null, "");
    } catch (RuntimeException e) {
      return LoopExplanation.unexplained(key, profileName, notes, "the policy failed: " + e.getMessage());
    }
  }

  /** As {@code GroupCycle} would try the group now; the members it would wait for or refuse are said so. */
  private LoopExplanation explainGroup(
      String key,
      String profileName,
      List<String> notes,
      PodGroupRef ref,
      Policy policy,
      Set<ClusterData> reads,
      Nominations nominations) {
    var group = groups.group(ref);
    if (group == null) {
      var invalid = groups.invalid(ref);
      return LoopExplanation.unexplained(
          key, profileName, notes,
          invalid != null
              ? "its pod group " + ref.key() + " cannot be read: " + invalid
              : "its pod group " + ref.key() + " is not known yet: its members wait until it is created");
    }
    var members = new ArrayList<PodInfo>();
    for (var member : queue.groupMembers(ref)) {
      var info = member.info();
      if (info != null && pending.pendingPod(member.uid()) != null && !cache.isAssumed(member.uid())) {
        members.add(info);
      }
    }
    int placed = cache.placedMembers(ref);
    if (members.size() + placed < group.minMember()) {
      return LoopExplanation.unexplained(
          key, profileName, notes,
          "its pod group " + ref.key() + " has " + (members.size() + placed) + " of its minimum of "
              + group.minMember() + " members (" + placed + " placed); it waits for the others");
    }
    // The order GroupCycle tries them in.
    members.sort(GroupPlacement.TRIAL_ORDER);
    var tried = new ArrayList<PodInfo>();
    var groupNotes = new ArrayList<>(notes);
    for (var member : members) {
      UnsupportedFeatures.refusal(member, reads)
          .ifPresentOrElse(
              why -> groupNotes.add("member " + member.key() + " is refused before the policy sees it: " + why),
              () -> tried.add(member));
    }
    if (tried.isEmpty()) {
      return LoopExplanation.unexplained(
          key, profileName, groupNotes, "every pending member of its pod group " + ref.key() + " is refused");
    }
    try {
      var explanation =
          policy.explainGroup(group, tried, placed, snapshots.apply(cache.nodes(), nominations));
      return new LoopExplanation(key, profileName, groupNotes, null, explanation, "");
    } catch (RuntimeException e) {
      return LoopExplanation.unexplained(
          key, profileName, groupNotes, "the policy failed on pod group " + ref.key() + ": " + e.getMessage());
    }
  }
}
