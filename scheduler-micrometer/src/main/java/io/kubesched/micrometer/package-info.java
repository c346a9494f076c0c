/**
 * Micrometer support, an optional artifact ({@code io.kubesched:scheduler-micrometer}): {@link
 * io.kubesched.micrometer.MicrometerMetrics} records the scheduling loop's {@link
 * io.kubesched.api.SchedulerMetrics} under kube-scheduler's metric names. The rest of the library never
 * loads a Micrometer class.
 */
@NullMarked
package io.kubesched.micrometer;

import org.jspecify.annotations.NullMarked;
