package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * What the volume rules read of a StorageClass.
 *
 * @param name the class's name
 * @param provisioner {@code provisioner}; {@value #NO_PROVISIONER} for classes of statically created
 *     volumes only
 * @param waitForFirstConsumer whether {@code volumeBindingMode} is {@code WaitForFirstConsumer} (binding
 *     waits until a scheduler picks a node); false for {@code Immediate}, also when absent
 * @param allowedTopologies {@code allowedTopologies}, each topology selector term as a node selector term of
 *     {@code In} requirements; empty when volumes can be provisioned anywhere
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record StorageClass(
    String name, String provisioner, boolean waitForFirstConsumer, List<NodeSelectorTerm> allowedTopologies) {

  /** The provisioner of classes that cannot provision: {@code kubernetes.io/no-provisioner}. */
  public static final String NO_PROVISIONER = "kubernetes.io/no-provisioner";

  public StorageClass {
    allowedTopologies = List.copyOf(allowedTopologies);
  }
}
