package io.kubesched.samples.josdk;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A batch job of one team: {@link BatchJobSpec#workers()} worker pods, each asking for the same CPU and memory,
 * placed by the embedded scheduler ({@value BatchOperator#SCHEDULER_NAME}); its {@link BatchJobStatus} says how
 * many are placed and where. Namespaced; the CRD is {@code batchjobs.samples.kubesched.io.yaml} in this sample's
 * resources, written by hand.
 */
@Group(BatchJob.GROUP)
@Version(BatchJob.VERSION)
public class BatchJob extends CustomResource<BatchJobSpec, BatchJobStatus> implements Namespaced {

  /** The API group. */
  public static final String GROUP = "samples.kubesched.io";

  /** The only version. */
  public static final String VERSION = "v1";

  /** Jackson's, and java-operator-sdk's, way in. */
  public BatchJob() {}
}
