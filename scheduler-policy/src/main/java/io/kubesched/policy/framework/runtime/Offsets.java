package io.kubesched.policy.framework.runtime;

import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;

/**
 * The generator of preemption's dry-run offsets (kube's {@code getOffsetRand}): a SplitMix64 sequence over a
 * state the policy keeps, advanced once per attempt that draws ({@code advance}), or peeked at without advancing
 * (explanations show the offset the next decision would draw). Thread-safe: the state is advanced atomically.
 */
public final class Offsets implements RandomGenerator {

  private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

  private final AtomicLong state;
  private final boolean advance;

  /**
   * @param state the sequence's state, shared by every attempt of the policies that share the offsets
   * @param advance whether a draw moves the state on (a decision) or only peeks at it (an explanation)
   */
  public Offsets(AtomicLong state, boolean advance) {
    this.state = state;
    this.advance = advance;
  }

  @Override
  public long nextLong() {
    long next = advance ? state.addAndGet(GOLDEN_GAMMA) : state.get() + GOLDEN_GAMMA;
    return mix64(next);
  }

  @Override
  public int nextInt(int bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive, was " + bound);
    }
    return (int) Math.floorMod(nextLong(), (long) bound);
  }

  private static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
