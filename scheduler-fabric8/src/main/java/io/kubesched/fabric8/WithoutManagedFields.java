package io.kubesched.fabric8;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * A mix-in of {@code ObjectMeta} that leaves {@code metadata.managedFields} out of decoding and encoding (why:
 * {@code SchedulingClients}). The annotation's package is the same on Jackson 2 and 3, so the mix-in serves both
 * lines.
 */
@JsonIgnoreProperties({"managedFields"})
abstract class WithoutManagedFields {}
