package io.kubesched.testkit;

import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import net.jqwik.api.domains.Domain;

/**
 * The contract applied as a user would: a correct first-fit policy keeps every rule. The domain on the
 * class, which a user's own properties may need, must not keep the contract's parameters from resolving.
 */
@Domain(KubeDomain.class)
class FirstFitPolicyProperties implements PolicyContract {

  @Override
  public FinderFunc policy(long seed) {
    return FirstFit::find;
  }

  @Override
  public boolean feasible(PodInfo pod, NodeInfo node) {
    return FirstFit.fits(pod, node);
  }
}
