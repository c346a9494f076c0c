/** Client creation. Internal to the library: exported to the facade only. */
@NullMarked
package io.kubesched.k8s;

import org.jspecify.annotations.NullMarked;
