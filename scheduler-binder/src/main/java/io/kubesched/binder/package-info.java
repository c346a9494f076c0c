/** Binding pods to nodes through the Kubernetes API. */
@NullMarked
package io.kubesched.binder;

import org.jspecify.annotations.NullMarked;
