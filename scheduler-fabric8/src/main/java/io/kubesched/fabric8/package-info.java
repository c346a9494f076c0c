/**
 * Internal: what differs between the fabric8 lines the library is built for (fabric8 7 with Jackson 2,
 * fabric8 8 with Jackson 3), behind {@link io.kubesched.fabric8.Fabric8Compat}. Exported only to the library's
 * modules that talk to fabric8.
 */
@NullMarked
package io.kubesched.fabric8;

import org.jspecify.annotations.NullMarked;
