package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * What the volume rules read of a CSINode: the CSI drivers installed on a node.
 *
 * @param nodeName the node's name (a CSINode is named as its node)
 * @param drivers each installed driver by name
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record CsiNode(String nodeName, Map<String, Driver> drivers) {

  public CsiNode {
    drivers = Map.copyOf(drivers);
  }

  /**
   * One driver on the node.
   *
   * @param name the driver's name
   * @param nodeId the node's id for this driver ({@code nodeID})
   * @param allocatableCount {@code allocatable.count}: how many volumes of this driver the node can have
   *     attached; -1 when the driver sets no limit
   * @param topologyKeys the node label keys the driver reports topology by
   */
  public record Driver(String name, String nodeId, int allocatableCount, List<String> topologyKeys) {

    public Driver {
      topologyKeys = List.copyOf(topologyKeys);
    }

    /** @return whether the driver limits how many of its volumes the node can have attached */
    public boolean hasLimit() {
      return allocatableCount >= 0;
    }
  }
}
