package io.kubesched.policy.plugins.imagelocality;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.Scorer;
import java.util.List;

/**
 * Favours nodes that already hold the pod's container images: kube-scheduler's {@code ImageLocality} plugin
 * (formerly {@code ImageLocalityPriority}), as of 1.37.
 *
 * <p>For each of the pod's {@linkplain PodInfo#images() container and init container images} (each container
 * counts, even when two use the same image) that the node holds, the image's size is scaled by its spread, the
 * share of all nodes that hold it, and truncated; the sum, clamped to {@code 23 MiB .. 1000 MiB × number of
 * images}, is mapped linearly onto {@code 0..100}, rounded down. An image name without a tag or digest is
 * looked up as {@code name:latest}; the node's names are taken as they are.
 *
 * <p>Deviations: kube also counts image volumes ({@code volumes[].image}), which this model does not carry.
 * When a node lists the same image name twice with different sizes, the first size is used (kube uses the
 * size of whichever node its cache saw first). Image sizes near {@link Long#MAX_VALUE} saturate instead of
 * overflowing.
 *
 * <p>This scorer scores only through {@link #prepare}, which reads how many nodes hold each of the pod's images
 * from the snapshot ({@link ClusterSnapshot#nodesHoldingImage}, kept up to date from one decision to the next
 * as kube's snapshot keeps its image states). It and the scorers it prepares are stateless and thread-safe.
 */
public final class ImageLocalityScorer implements Scorer, PreScorer {

  /** The scorer's name. */
  public static final String NAME = "ImageLocality";

  private static final long MB = 1024L * 1024;

  /** Below this sum of scaled image sizes a node scores 0: 23 MiB, about the size of a small image. */
  static final long MIN_THRESHOLD = 23 * MB;

  /** Per image of the pod, the sum of scaled image sizes at which a node scores 100: 1000 MiB. */
  static final long MAX_CONTAINER_THRESHOLD = 1000 * MB;

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Not supported: the score needs how many nodes hold each image, so this scorer is used through {@link
   * #prepare}.
   *
   * @throws IllegalStateException always
   */
  @Override
  public long score(PodInfo pod, NodeInfo node) {
    throw new IllegalStateException(NAME + " scores only through prepare(pod, feasibleNodes, cluster)");
  }

  /**
   * @param cluster the snapshot: the spread of an image is the share of its nodes that hold it
   * @return a scorer of {@code pod}'s feasible nodes
   */
  @Override
  public Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster) {
    var names = new String[pod.images().size()];
    var holding = new int[names.length];
    for (int i = 0; i < names.length; i++) {
      names[i] = normalizedImageName(pod.images().get(i));
      holding[i] = cluster.nodesHoldingImage(names[i]);
    }
    return new Prepared(names, holding, cluster.nodes().size());
  }

  /** @return the size of the first image on {@code node} known as {@code name}; -1 if it has none */
  private static long sizeOn(NodeInfo node, String name) {
    // Indexed loops: called per scored node and container, and C1, which the server ships with, does not
    // remove iterators.
    var images = node.images();
    for (int i = 0; i < images.size(); i++) {
      var image = images.get(i);
      var names = image.names();
      for (int j = 0; j < names.size(); j++) {
        if (names.get(j).equals(name)) {
          return image.sizeBytes();
        }
      }
    }
    return -1;
  }

  /** kube's {@code normalizedImageName}: {@code name:latest} when the name has no tag after its last slash. */
  static String normalizedImageName(String name) {
    return name.lastIndexOf(':') <= name.lastIndexOf('/') ? name + ":latest" : name;
  }

  /** kube's {@code calculatePriority}. */
  static long priority(long sumScores, int imageCount) {
    long maxThreshold = MAX_CONTAINER_THRESHOLD * imageCount;
    long clamped = sumScores < MIN_THRESHOLD ? MIN_THRESHOLD : Math.min(sumScores, maxThreshold);
    return MAX_SCORE * (clamped - MIN_THRESHOLD) / (maxThreshold - MIN_THRESHOLD);
  }

  /** One pod's scorer, knowing how many nodes hold each of its images. */
  private static final class Prepared implements Scorer {
    private final String[] names;
    private final int[] holding;
    private final int totalNodes;

    Prepared(String[] names, int[] holding, int totalNodes) {
      this.names = names;
      this.holding = holding;
      this.totalNodes = totalNodes;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      long sum = 0;
      for (int i = 0; i < names.length; i++) {
        if (holding[i] == 0) { // no node holds it: nothing to look for
          continue;
        }
        long size = sizeOn(node, names[i]);
        if (size >= 0) {
          sum = saturatedAdd(sum, scaledImageScore(size, holding[i]));
        }
      }
      return priority(sum, names.length);
    }

    /** kube's {@code scaledImageScore}: the size times the share of nodes holding the image, truncated. */
    private long scaledImageScore(long size, int holding) {
      if (totalNodes == 0) {
        return 0;
      }
      double spread = (double) holding / (double) totalNodes;
      return (long) ((double) size * spread);
    }

    private static long saturatedAdd(long a, long b) {
      long sum = a + b;
      return sum < 0 ? Long.MAX_VALUE : sum;
    }
  }
}
