/**
 * A platform team's second scheduler: kubesched-server with one filter of its own, {@link
 * io.kubesched.samples.plugins.AvoidDrainingNodes}, registered by name in {@link
 * io.kubesched.samples.plugins.PlatformScheduler} and enabled by that name in the KubeSchedulerConfiguration.
 */
@NullMarked
package io.kubesched.samples.plugins;

import org.jspecify.annotations.NullMarked;
