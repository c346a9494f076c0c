/**
 * The channels the loop tells through: API writes run off the deciding thread, best effort ({@link
 * io.kubesched.informer.report.BestEffort}), pod group status and events ({@link
 * io.kubesched.informer.report.GroupReports} behind {@link io.kubesched.informer.report.GroupReportPort}), the
 * listener on a thread of its own ({@link io.kubesched.informer.report.SerialListener}) and metrics that never
 * throw ({@link io.kubesched.informer.report.GuardedMetrics}). What an attempt tells about its pod is the
 * cycle's {@link io.kubesched.informer.cycle.Reporting}, which writes through these.
 */
@NullMarked
package io.kubesched.informer.report;

import org.jspecify.annotations.NullMarked;
