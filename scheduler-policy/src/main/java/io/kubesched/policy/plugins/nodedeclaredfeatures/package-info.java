/**
 * kube-scheduler's {@code nodedeclaredfeatures} plugin: the {@code NodeDeclaredFeatures} filter, with the feature
 * registry of kube's {@code component-helpers/nodedeclaredfeatures} (which features a pod's spec needs a node to
 * declare). Internal: not exported; users reach it through {@link
 * io.kubesched.policy.plugins.Filters#nodeDeclaredFeatures()}.
 */
@NullMarked
package io.kubesched.policy.plugins.nodedeclaredfeatures;

import org.jspecify.annotations.NullMarked;
