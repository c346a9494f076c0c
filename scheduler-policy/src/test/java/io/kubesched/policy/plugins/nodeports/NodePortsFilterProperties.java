package io.kubesched.policy.plugins.nodeports;

import static io.kubesched.policy.plugins.FilterFixtures.nodeWith;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.HostPort;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.plugins.FilterFixtures;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class NodePortsFilterProperties {

  /** Every concrete address the generator uses; the wildcard stands for all of them. */
  private static final List<String> ADDRESSES = List.of("127.0.0.1", "10.0.0.1");

  private final NodePortsFilter filter = new NodePortsFilter();

  @Property
  @Label("a pod fits iff the sockets its ports bind are disjoint from those the node's pods bind")
  void fitsIffBoundSocketsAreDisjoint(
      @ForAll("portLists") List<HostPort> wanted,
      @ForAll("portLists") List<HostPort> firstUsed,
      @ForAll("portLists") List<HostPort> secondUsed) {
    var node = nodeWith(pod("a").hostPorts(firstUsed).build(), pod("b").hostPorts(secondUsed).build());

    var taken = sockets(firstUsed);
    taken.addAll(sockets(secondUsed));
    boolean expected = Collections.disjoint(sockets(wanted), taken);
    var result = filter.filter(pod("p").hostPorts(wanted).build(), node);

    assertEquals(expected, result.fits());
    if (!expected) {
      assertEquals(Code.UNSCHEDULABLE, result.code());
    }
    boolean wildcard =
        !expected
            && wanted.stream().noneMatch(w -> firstUsed.contains(w) || secondUsed.contains(w));
    Statistics.label("outcome")
        .collect(expected ? "fits" : wildcard ? "conflict through 0.0.0.0" : "same port");
    Statistics.label("outcome")
        .coverage(
            c -> {
              c.check("fits").percentage(p -> p > 10);
              c.check("same port").count(n -> n > 0);
              c.check("conflict through 0.0.0.0").count(n -> n > 0);
            });
  }

  @Property
  @Label("a pod A fits beside a pod B iff B fits beside A")
  void conflictIsSymmetric(@ForAll("portLists") List<HostPort> a, @ForAll("portLists") List<HostPort> b) {
    PodInfo podA = pod("a").hostPorts(a).build();
    PodInfo podB = pod("b").hostPorts(b).build();

    boolean aBesideB = filter.filter(podA, nodeWith(podB)).fits();

    assertEquals(aBesideB, filter.filter(podB, nodeWith(podA)).fits());
    Statistics.label("fits").collect(aBesideB);
    Statistics.label("fits").coverage(c -> {
      c.check(true).count(n -> n > 0);
      c.check(false).count(n -> n > 0);
    });
  }

  /** Each port as the (protocol, address, port) triples it occupies, the wildcard occupying every address. */
  private static Set<List<Object>> sockets(List<HostPort> ports) {
    var result = new HashSet<List<Object>>();
    for (var port : ports) {
      var addresses = port.hostIp().equals(HostPort.ALL_ADDRESSES) ? ADDRESSES : List.of(port.hostIp());
      for (var address : addresses) {
        result.add(List.of(port.protocol(), address, port.port()));
      }
    }
    return result;
  }

  @Provide
  Arbitrary<List<HostPort>> portLists() {
    return FilterFixtures.hostPorts().list().ofMaxSize(2);
  }
}
