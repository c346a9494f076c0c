/** The scheduling loop and the cluster snapshot it decides over. */
@NullMarked
package io.kubesched.informer;

import org.jspecify.annotations.NullMarked;
