/**
 * Reporting on scheduling through the API server, rate-limited and best effort: a pod's {@code Scheduled},
 * {@code FailedScheduling} and {@code Preempted} events and its {@code PodScheduled} condition ({@link
 * io.kubesched.binder.report.SchedulingReporter}), a pod group's events, condition and status ({@link
 * io.kubesched.binder.report.PodGroupReporter}), and the events.k8s.io writer both use, with client-go's
 * aggregation into series ({@link io.kubesched.binder.report.EventRecorder}, keyed by {@link
 * io.kubesched.binder.report.EventKey}). Like the rest of the binder it speaks fabric8 only.
 */
@NullMarked
package io.kubesched.binder.report;

import org.jspecify.annotations.NullMarked;
