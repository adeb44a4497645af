package org.strata.lsm.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/papers/triad.md#invariants, item 1: the update counter of TRIAD-MEM and the carry of entries
 * between components.
 */
class MemoryComponentTriadTest {
  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aNewKeyStartsAtOneAndEachUpdateAddsOne() {
    MemoryComponent mc = new MemoryComponent(1);
    assertThat(mc.updates(b("a"))).isZero();
    mc.put(b("a"), b("1"), 1);
    assertThat(mc.updates(b("a"))).isEqualTo(1);
    mc.put(b("a"), b("2"), 2);
    mc.put(b("a"), null, 3);
    assertThat(mc.updates(b("a"))).isEqualTo(3);
    mc.put(b("b"), b("x"), 4);
    assertThat(mc.updates(b("b"))).isEqualTo(1);
    assertThat(mc.updateCounts()).containsExactly(3, 1);
  }

  @Test
  void aCarriedKeyStartsAtZeroAndIsNoUserWrite() {
    MemoryComponent old = new MemoryComponent(1);
    old.put(b("h"), b("1"), 1);
    old.put(b("h"), b("22"), 2);
    old.put(b("c"), b("3"), 3);
    old.seal();
    MemoryComponent fresh = new MemoryComponent(2);
    List<MemoryComponent.Entry> hot = old.newest(new boolean[] {false, true});
    assertThat(hot).hasSize(1);
    assertThat(new String(hot.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("22");
    fresh.carry(hot.get(0).key(), hot.get(0).value(), 10);
    old.carriedOut(List.of(hot.get(0).key()));
    assertThat(fresh.updates(b("h"))).as("counter reset").isZero();
    assertThat(fresh.userBytes()).isZero();
    assertThat(fresh.carriedBytes()).isEqualTo(3);
    assertThat(fresh.get(b("h")).value()).isEqualTo(b("22"));
    fresh.put(b("h"), b("4"), 11);
    assertThat(fresh.updates(b("h"))).isEqualTo(1);
    assertThat(fresh.updateCounts()).containsExactly(1);
    assertThat(old.isCarriedOut(b("h"))).isTrue();
    assertThat(old.isCarriedOut(b("c"))).isFalse();
    assertThat(old.coldCount()).isEqualTo(1);
  }

  @Test
  void countsTellCarriedFromWrittenKeysWhateverTheirOrder() {
    MemoryComponent fresh = new MemoryComponent(2);
    fresh.carry(b("b"), b("1"), 10);
    fresh.carry(b("d"), b("1"), 11);
    fresh.put(b("a"), b("x"), 12); // written, never carried
    fresh.put(b("b"), b("x"), 13);
    fresh.put(b("b"), b("y"), 14);
    fresh.put(b("c"), null, 15);
    fresh.put(b("c"), b("z"), 16);
    assertThat(fresh.updateCounts()).containsExactly(1, 2, 2, 0);
    assertThat(fresh.updates(b("d"))).as("carried, not written since").isZero();
    assertThat(fresh.updates(b("c"))).isEqualTo(2);
    assertThatThrownBy(() -> fresh.carry(b("e"), b("1"), 17))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("before any user write");
    MemoryComponent other = new MemoryComponent(3);
    other.carry(b("k"), b("1"), 20);
    assertThatThrownBy(() -> other.carry(b("m"), b("1"), 20))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void liveBytesCountOnlyTheNewestVersionOfEachKey() {
    MemoryComponent one = new MemoryComponent(1);
    one.put(b("k"), new byte[100], 1);
    MemoryComponent many = new MemoryComponent(2);
    for (int i = 0; i < 50; i++) {
      many.put(b("k"), new byte[100], i + 1);
    }
    assertThat(many.liveBytes()).isLessThanOrEqualTo(one.liveBytes() + 8 * 16)
        .isGreaterThan(100);
    assertThat(many.sizeBytes()).isGreaterThan(40 * 100);
  }
}
