package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * What the volume rules read of a CSIDriver object.
 *
 * @param name the driver's name
 * @param attachRequired {@code spec.attachRequired} (true when absent): whether its volumes are attached to a
 *     node, and so count against the node's attach limit
 * @param storageCapacity {@code spec.storageCapacity} (false when absent): whether the driver publishes
 *     CSIStorageCapacity objects, which the scheduler must then check before provisioning
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record CsiDriver(String name, boolean attachRequired, boolean storageCapacity) {}
