/** Binding pods to nodes through the Kubernetes API, and reporting on scheduling, rate-limited. */
@NullMarked
package io.kubesched.binder;

import org.jspecify.annotations.NullMarked;
