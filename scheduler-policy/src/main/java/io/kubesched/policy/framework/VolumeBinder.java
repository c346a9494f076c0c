package io.kubesched.policy.framework;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.VolumeBinding;
import java.util.List;
import org.apiguardian.api.API;

/**
 * An optional capability of the filter a {@link PreFilter} prepares for one pod: what must be done for the
 * pod's unbound claims if it goes to a given node, as kube-scheduler's VolumeBinding plugin remembers it from
 * its Filter for its Reserve and PreBind. The policy asks it once, for the node it chose, and puts the answer
 * in the {@link Decision.Bind}.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface VolumeBinder {

  /**
   * Called from the scheduling thread for the chosen node, after this filter accepted it.
   *
   * @param node the node the pod goes to
   * @return one binding per unbound claim of the pod; empty if it has none
   */
  List<VolumeBinding> volumeBindings(NodeInfo node);
}
