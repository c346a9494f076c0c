/**
 * kube-scheduler's former {@code selectorspread} plugin: the {@code SelectorSpread} scorer. Internal: not exported;
 * users reach it through {@link io.kubesched.policy.plugins.Scorers#selectorSpread()}.
 */
@NullMarked
package io.kubesched.policy.plugins.selectorspread;

import org.jspecify.annotations.NullMarked;
