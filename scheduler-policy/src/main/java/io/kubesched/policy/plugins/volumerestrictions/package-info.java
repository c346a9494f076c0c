/**
 * kube-scheduler's {@code volumerestrictions} plugin: the {@code VolumeRestrictions} filter (disk conflicts and
 * ReadWriteOncePod claims). Internal: not exported; users reach it through {@link
 * io.kubesched.policy.plugins.Filters#volumeRestrictions()}.
 */
@NullMarked
package io.kubesched.policy.plugins.volumerestrictions;

import org.jspecify.annotations.NullMarked;
