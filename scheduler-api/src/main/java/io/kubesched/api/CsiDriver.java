package io.kubesched.api;

/**
 * What the volume rules read of a CSIDriver object.
 *
 * @param name the driver's name
 * @param attachRequired {@code spec.attachRequired} (true when absent): whether its volumes are attached to a
 *     node, and so count against the node's attach limit
 * @param storageCapacity {@code spec.storageCapacity} (false when absent): whether the driver publishes
 *     CSIStorageCapacity objects, which the scheduler must then check before provisioning
 */
public record CsiDriver(String name, boolean attachRequired, boolean storageCapacity) {}
