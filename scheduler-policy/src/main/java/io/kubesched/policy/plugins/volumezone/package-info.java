/**
 * kube-scheduler's {@code volumezone} plugin: the {@code VolumeZone} filter, which keeps a pod off nodes outside
 * its volumes' zones. Internal: not exported; users reach it through {@link
 * io.kubesched.policy.plugins.Filters#volumeZone()}.
 */
@NullMarked
package io.kubesched.policy.plugins.volumezone;

import org.jspecify.annotations.NullMarked;
