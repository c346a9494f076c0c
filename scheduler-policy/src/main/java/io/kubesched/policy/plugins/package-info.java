/**
 * The built-in filters and scorers, each with the semantics of the kube-scheduler plugin (or former
 * predicate/priority) it names.
 */
@NullMarked
package io.kubesched.policy.plugins;

import org.jspecify.annotations.NullMarked;
