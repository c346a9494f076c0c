package io.kubesched.policy.framework.runtime;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The search for feasible nodes (kube's {@code findNodesThatPassFilters}): the nodes from the round-robin
 * start, filtered until enough are feasible, on the calling thread or shared out over {@link NodeWorkers} with
 * the same outcome. Stateless.
 */
final class NodeSearch {

  private NodeSearch() {}

  /**
   * What the search over the nodes found.
   *
   * @param feasible the feasible nodes, in examination order; at most the number to find
   * @param rejections the rejection of each node examined and rejected
   * @param rejectors the names of the filters that rejected them
   * @param processed how many nodes were examined (what the round-robin start index moves by)
   */
  record Search(
      List<NodeInfo> feasible, Map<String, FilterResult.Rejected> rejections, Set<String> rejectors, int processed) {}

  /**
   * The search: the nodes from {@code start}, wrapping, filtered one after the other until {@code toFind} are
   * feasible or every node was examined (kube's {@code findNodesThatPassFilters}).
   */
  static Search search(
      PodInfo pod,
      List<NodeInfo> nodes,
      int start,
      int toFind,
      List<Filter> podFilters,
      Nominations nominations,
      @Nullable Recorder recorder) {
    int nodeCount = nodes.size();
    Supplier<TrackedFilters> tracked = () -> TrackedFilters.of(podFilters);
    var feasible = new ArrayList<NodeInfo>(Math.min(toFind, nodeCount));
    Map<String, FilterResult.Rejected> rejections = new HashMap<>();
    var rejectors = new HashSet<String>();
    int processed = 0;
    for (int i = 0; i < nodeCount && feasible.size() < toFind; i++) {
      var node = nodes.get((start + i) % nodeCount);
      processed++;
      var stop = stop(podFilters, tracked, pod, node, nominations, recorder);
      if (stop == null) {
        feasible.add(node);
      } else {
        rejections.put(node.name(), (FilterResult.Rejected) stop.result());
        rejectors.add(stop.filter());
      }
    }
    return new Search(feasible, rejections, rejectors, processed);
  }

  /** A node's outcome in the parallel search when every filter fits it. */
  private static final Object FITS = new Object();

  /** A node's outcome in the parallel search when a filter threw (or failed): thrown again if the search gets there. */
  private record Thrown(Throwable thrown) {}

  /**
   * The {@link #search} shared out over {@code workers}, deciding exactly as it does. The nodes, in the search's
   * order from {@code start}, are cut into chunks claimed in order; each node's outcome is kept (it fits, its
   * rejection, or what a filter threw). No chunk is claimed once the chunks done hold {@code toFind} feasible
   * nodes, or past a chunk where a filter threw: the chunks claimed are then a prefix holding every node the
   * sequential search examines, and reading their outcomes in order, stopping where it stops, gives its
   * feasible nodes, rejections and count, or throws what it throws.
   */
  static Search searchInParallel(
      NodeWorkers workers,
      PodInfo pod,
      List<NodeInfo> nodes,
      int start,
      int toFind,
      List<Filter> podFilters,
      Nominations nominations) {
    int nodeCount = nodes.size();
    int chunkSize = workers.chunkSize();
    int chunks = workers.chunks(nodeCount);
    var outcomes = new Object[chunks][];
    var feasibleDone = new AtomicInteger();
    var firstThrowing = new AtomicInteger(Integer.MAX_VALUE);
    Supplier<TrackedFilters> tracked = () -> TrackedFilters.of(podFilters);
    workers.run(
        chunks,
        chunk -> feasibleDone.get() < toFind && chunk <= firstThrowing.get(),
        chunk -> {
          int from = chunk * chunkSize;
          var results = new Object[Math.min(chunkSize, nodeCount - from)];
          int fits = 0;
          for (int i = 0; i < results.length; i++) {
            var node = nodes.get((start + from + i) % nodeCount);
            try {
              var stop = stop(podFilters, tracked, pod, node, nominations, null);
              if (stop == null) {
                results[i] = FITS;
                fits++;
              } else {
                results[i] = stop;
              }
            } catch (Throwable thrown) { // carried to the calling thread, thrown there if the search gets here
              results[i] = new Thrown(thrown);
              firstThrowing.accumulateAndGet(chunk, Math::min);
              break;
            }
          }
          outcomes[chunk] = results;
          feasibleDone.addAndGet(fits);
        });
    var feasible = new ArrayList<NodeInfo>(Math.min(toFind, nodeCount));
    Map<String, FilterResult.Rejected> rejections = new HashMap<>();
    var rejectors = new HashSet<String>();
    int processed = 0;
    for (int i = 0; i < nodeCount && feasible.size() < toFind; i++) {
      var outcome = outcomes[i / chunkSize][i % chunkSize];
      var node = nodes.get((start + i) % nodeCount);
      processed++;
      if (outcome == FITS) {
        feasible.add(node);
      } else if (outcome instanceof Filtering.Stop stop) {
        rejections.put(node.name(), (FilterResult.Rejected) stop.result());
        rejectors.add(stop.filter());
      } else {
        throw rethrown(((Thrown) outcome).thrown());
      }
    }
    return new Search(feasible, rejections, rejectors, processed);
  }

  /** @return {@code thrown}, to throw as it is (a filter or scorer can throw only unchecked ones) */
  static RuntimeException rethrown(Throwable thrown) {
    if (thrown instanceof RuntimeException runtime) {
      return runtime;
    }
    if (thrown instanceof Error error) {
      throw error;
    }
    return new SchedulerException("a plugin threw " + thrown, thrown);
  }

  /**
   * Runs the filters on {@code node} with the nominated pods ahead of {@code pod} (kube's {@code
   * RunFilterPluginsWithNominatedPods}).
   *
   * @return the rejection of the first filter that does not fit; null if all fit
   * @throws SchedulerException if a filter fails
   */
  static FilterResult.@Nullable Rejected filter(
      List<Filter> filters,
      Supplier<TrackedFilters> tracked,
      PodInfo pod,
      NodeInfo node,
      Nominations nominations,
      @Nullable Recorder recorder) {
    var stop = stop(filters, tracked, pod, node, nominations, recorder);
    return stop == null ? null : (FilterResult.Rejected) stop.result();
  }

  /**
   * As {@link #filter}, naming the filter that rejected the node.
   *
   * @return the first filter that does not fit, with its rejection; null if all fit
   * @throws SchedulerException if a filter fails
   */
  private static Filtering.@Nullable Stop stop(
      List<Filter> filters,
      Supplier<TrackedFilters> tracked,
      PodInfo pod,
      NodeInfo node,
      Nominations nominations,
      @Nullable Recorder recorder) {
    var stop = Filtering.runWithNominated(filters, tracked, pod, node, nominations, recorder);
    if (stop != null && stop.result() instanceof FilterResult.Failed failed) {
      throw new SchedulerException(
          "filter " + stop.filter() + " failed for pod " + pod.key() + " on node " + node.name() + ": "
              + failed.message());
    }
    return stop;
  }
}
