/**
 * The watching: the informers on nodes, pods and what the policies read ({@link
 * io.kubesched.informer.watch.InformerSet}, {@link io.kubesched.informer.watch.ClusterDataInformers}, {@link
 * io.kubesched.informer.watch.PodGroupSources}), their kept-fields stores ({@link
 * io.kubesched.informer.watch.InformerStores}), the watchdog that relists after a lost watch, and the
 * handlers that sort every event into the engine's queue and cache ({@link
 * io.kubesched.informer.watch.EventHandlers}, kube-scheduler's {@code eventhandlers.go}).
 */
@NullMarked
package io.kubesched.informer.watch;

import org.jspecify.annotations.NullMarked;
