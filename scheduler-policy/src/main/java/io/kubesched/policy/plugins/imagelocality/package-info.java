/**
 * kube-scheduler's {@code imagelocality} plugin: the {@code ImageLocality} scorer. Internal: not exported; users
 * reach it through {@link io.kubesched.policy.plugins.Scorers#imageLocality()}.
 */
@NullMarked
package io.kubesched.policy.plugins.imagelocality;

import org.jspecify.annotations.NullMarked;
