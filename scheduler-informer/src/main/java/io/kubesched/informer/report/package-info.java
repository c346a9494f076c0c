/**
 * What the loop tells: pod outcomes to the log, the API server and the listener ({@link
 * io.kubesched.informer.report.Reporting}), pod group status and events ({@link
 * io.kubesched.informer.report.GroupReports} behind {@link io.kubesched.informer.report.GroupReportPort}), the
 * listener on a thread of its own ({@link io.kubesched.informer.report.SerialListener}) and metrics that never
 * throw ({@link io.kubesched.informer.report.GuardedMetrics}).
 */
@NullMarked
package io.kubesched.informer.report;

import org.jspecify.annotations.NullMarked;
