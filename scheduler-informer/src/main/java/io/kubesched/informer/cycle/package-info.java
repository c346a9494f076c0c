/**
 * The loop proper, as kube-scheduler's {@code schedule_one.go}: the {@link
 * io.kubesched.informer.cycle.SchedulingCycle} on the one scheduling thread, the {@link
 * io.kubesched.informer.cycle.BindingCycle} (with volume binding's PreBind wait), the {@link
 * io.kubesched.informer.cycle.PreemptionCycle} and the pod group cycle, over the engine's queue and cache; each
 * profile's policy ({@link io.kubesched.informer.cycle.Profiles}); what an attempt tells about its pod ({@link
 * io.kubesched.informer.cycle.Reporting}); the expiry of assumptions; and the ports the
 * cycles write through ({@link io.kubesched.informer.cycle.BindPort}, {@link
 * io.kubesched.informer.cycle.VolumePort}, {@link io.kubesched.informer.cycle.PreemptPort}), fakes in the
 * loop's unit tests. It sees no informer: what it needs of the watch comes through {@link
 * io.kubesched.informer.cycle.PendingPodLookup} and {@link io.kubesched.informer.cycle.PodGroupLookup}.
 */
@NullMarked
package io.kubesched.informer.cycle;

import org.jspecify.annotations.NullMarked;
