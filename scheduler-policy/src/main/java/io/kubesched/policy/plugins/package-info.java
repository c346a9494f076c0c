/**
 * The built-in filters and scorers, each with the semantics of the kube-scheduler plugin (or former
 * predicate/priority) it names, made by the factories {@link io.kubesched.policy.plugins.Filters} and {@link
 * io.kubesched.policy.plugins.Scorers}: the plugins themselves live in one internal package each, named as
 * kube-scheduler names its plugin folders ({@code plugins.noderesources}, {@code plugins.interpodaffinity},
 * …), and their arguments in {@code io.kubesched.policy.plugins.args}. Exported.
 */
@NullMarked
package io.kubesched.policy.plugins;

import org.jspecify.annotations.NullMarked;
