/**
 * The scheduling engine's state, free of Kubernetes client types: the queue of pods waiting to be placed
 * ({@link io.kubesched.engine.SchedulingQueue}, kube-scheduler's {@code backend/queue}) and the cache of
 * nodes with their bound and assumed pods ({@link io.kubesched.engine.SchedulerCache}, kube-scheduler's
 * {@code backend/cache}), with the queueing hints that decide which cluster event may help which pod.
 * Internal: exported only to the scheduling loop.
 */
@NullMarked
package io.kubesched.engine;

import org.jspecify.annotations.NullMarked;
