package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.NodeInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link CachedNodes} against a plain array: lists of no node to five chunks, the last one full or not, each derived
 * from the one before by replacing some positions (in any order, the same one twice, several in one chunk or
 * in different chunks), read whole after every step, and every list handed out before unchanged.
 */
class CachedNodesProperties {

  /** One derivation: the positions it replaces, as fractions of the size. */
  record Step(List<Double> at) {}

  @Property(tries = 300)
  void every_list_reads_as_its_array_and_no_later_list_changes_it(
      @ForAll("sizes") int size, @ForAll("steps") List<Step> steps) {
    var model = new NodeInfo[size];
    var positions = new HashMap<String, Integer>();
    for (int i = 0; i < size; i++) {
      model[i] = node("node-" + i, 0);
      positions.put(model[i].name(), i);
    }
    var handedOut = new ArrayList<CachedNodes>();
    var expected = new ArrayList<NodeInfo[]>();
    var list = new CachedNodes(model.clone(), Map.copyOf(positions));
    check(list, model);
    handedOut.add(list);
    expected.add(model.clone());
    boolean crossedChunks = false;
    for (int generation = 1; generation <= steps.size() && size > 0; generation++) {
      var at = steps.get(generation - 1).at();
      var changed = new int[at.size()];
      var replacements = new NodeInfo[at.size()];
      for (int i = 0; i < at.size(); i++) {
        changed[i] = (int) (at.get(i) * size);
        replacements[i] = node("node-" + changed[i], generation * 100 + i);
        model[changed[i]] = replacements[i];
        crossedChunks |= changed[i] / CachedNodes.CHUNK != changed[0] / CachedNodes.CHUNK;
      }
      var next = list.with(changed, replacements);
      assertSame(list, next.base(), "a list made from another remembers it");
      assertSame(changed, next.changedPositions(), "and which positions it replaced");
      assertNull(list.base(), "the list before forgets its own base once the next one is made");
      check(next, model);
      handedOut.add(next);
      expected.add(model.clone());
      list = next;
    }
    for (int i = 0; i < handedOut.size(); i++) {
      assertArrayEquals(expected.get(i), handedOut.get(i).toArray(), "list " + i + " as it was handed out");
    }
    Statistics.label("chunks").collect((size + CachedNodes.CHUNK - 1) / CachedNodes.CHUNK);
    Statistics.label("chunks").coverage(c -> c.check(0).count(n -> n > 0));
    Statistics.label("chunks").coverage(c -> c.check(1).count(n -> n > 0));
    Statistics.label("chunks").coverage(c -> c.check(4).count(n -> n > 0));
    var crossed = Statistics.label("one derivation replaced nodes in two chunks");
    crossed.collect(crossedChunks);
    crossed.coverage(c -> c.check(true).percentage(p -> p >= 10));
  }

  private static void check(CachedNodes list, NodeInfo[] model) {
    assertEquals(model.length, list.size(), "size");
    for (int i = 0; i < model.length; i++) {
      assertSame(model[i], list.get(i), "node at " + i);
      assertSame(model[i], list.node("node-" + i), "node by name at " + i);
    }
    assertArrayEquals(model, list.toArray(), "toArray");
    assertEquals(List.of(model), List.copyOf(list), "List.copyOf");
    assertNull(list.node("no-such-node"), "a name not in the list");
    assertThrows(IndexOutOfBoundsException.class, () -> list.get(model.length), "past the end");
    assertThrows(IndexOutOfBoundsException.class, () -> list.get(-1), "before the start");
  }

  /** A node told apart by its pod capacity, so that a replacement is another object with the same name. */
  private static NodeInfo node(String name, int generation) {
    return NodeInfo.builder(name).allocatable(1000, 1000, 110 + generation).build();
  }

  @Provide
  Arbitrary<Integer> sizes() {
    int chunk = CachedNodes.CHUNK;
    return Arbitraries.oneOf(
        Arbitraries.of(0, 1, chunk - 1, chunk, chunk + 1, 2 * chunk, 3 * chunk + 7),
        Arbitraries.integers().between(0, 4 * chunk + 5));
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    var fraction = Arbitraries.doubles().between(0, 1).ofScale(3).filter(f -> f < 1);
    return fraction.list().ofMinSize(1).ofMaxSize(5).map(Step::new).list().ofMaxSize(6);
  }
}
