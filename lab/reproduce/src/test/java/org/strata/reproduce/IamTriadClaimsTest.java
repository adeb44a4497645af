package org.strata.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.strata.reproduce.IamReproduction.Load;

/**
 * The verdict logic of {@code iam} on made-up measurements (no engine runs; {@code triad}'s is in
 * {@link TriadClaimsTest}):
 * each claim follows the measurement it is given, its paper value never does, and a claim whose
 * variant or load is missing is not comparable with the reason.
 */
class IamTriadClaimsTest {

  private static IamConfig iamConfig() {
    return new IamConfig(1000, 1000, 1000, 65536, 10, 1 << 20, 3, List.of(1, 2, 3), 32768,
        327680, 1, 0.05, 0.15, 0.2, 0.1, null, null, null);
  }

  private static Load load(String name, double total, double l1, double l2, double l3) {
    TreeMap<Integer, Double> per = new TreeMap<>();
    per.put(1, l1);
    per.put(2, l2);
    if (l3 > 0) {
      per.put(3, l3);
    }
    return new Load(name, total, per, 1_000_000, total, Stalls.NONE, 1);
  }

  /** The paper's loads with the given totals (level values as Table 3 where not given). */
  private static Map<String, Load> iamLoads(double lsa, double iam, double k1, double k2,
      double k3, double leveled, double seq) {
    Map<String, Load> m = new LinkedHashMap<>();
    m.put(IamReproduction.LSA, load(IamReproduction.LSA, lsa, 1, 1, 1));
    m.put(IamReproduction.IAM, load(IamReproduction.IAM, iam, 1, 1, 2.4));
    m.put("iam-k1", load("iam-k1", k1, 1.03, 1.04, 3.88));
    m.put("iam-k2", load("iam-k2", k2, 1.03, 1.04, 2.41));
    m.put("iam-k3", load("iam-k3", k3, 1.03, 1.05, 1.90));
    m.put(IamReproduction.LEVELED, load(IamReproduction.LEVELED, leveled, 2, 3, 3));
    m.put(IamReproduction.SEQ_LSA, load(IamReproduction.SEQ_LSA, seq, seq, 0, 0));
    m.put(IamReproduction.SEQ_IAM, load(IamReproduction.SEQ_IAM, seq, seq, 0, 0));
    return m;
  }

  private static Map<String, Claim> byId(List<Claim> claims) {
    return claims.stream().collect(Collectors.toMap(Claim::id, Function.identity(),
        (a, b) -> a, LinkedHashMap::new));
  }

  @Test
  void iamTableThreeAndRankingFollowTheMeasurement() {
    Map<String, Claim> good = byId(IamReproduction.claims(iamConfig(),
        iamLoads(3.2, 4.7, 6.0, 4.8, 4.2, 8.8, 1.02)));
    assertThat(good.get("I1-k1-total").verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(good.get("I1-k1-mixed").verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(good.get("I1-decreasing").verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(good.get("I2-rank-lsa-iam").verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(good.get("I2-rank-iam-leveled").verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(good.get("I7-iam-sequential").verdict()).isEqualTo(Verdict.HOLDS);

    Map<String, Claim> bad = byId(IamReproduction.claims(iamConfig(),
        iamLoads(5.0, 4.7, 8.0, 4.8, 4.8, 4.0, 1.3)));
    assertThat(bad.get("I1-k1-total").verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(bad.get("I1-decreasing").verdict()).as("4.8 then 4.8 is not decreasing")
        .isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(bad.get("I2-rank-lsa-iam").verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(bad.get("I2-rank-iam-leveled").verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(bad.get("I7-iam-sequential").verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
  }

  @Test
  void iamClaimsOfLevelsOrLoadsNotReachedAreNotComparable() {
    Map<String, Load> m = iamLoads(3.2, 4.7, 6.0, 4.8, 4.2, 8.8, 1.02);
    m.put("iam-k2", load("iam-k2", 4.8, 1.03, 1.04, 0)); // two levels only
    m.remove("iam-k3");
    m.remove(IamReproduction.LEVELED);
    Map<String, Claim> c = byId(IamReproduction.claims(iamConfig(), m));
    assertThat(c.get("I1-k2-mixed").verdict()).isEqualTo(Verdict.NOT_COMPARABLE);
    assertThat(c.get("I1-k2-mixed").reason()).contains("only 2 levels");
    assertThat(c.get("I1-k3-total").verdict()).isEqualTo(Verdict.NOT_COMPARABLE);
    assertThat(c.get("I2-leveled").verdict()).isEqualTo(Verdict.NOT_COMPARABLE);
    assertThat(c.get("I2-rank-iam-leveled").verdict()).isEqualTo(Verdict.NOT_COMPARABLE);
    assertThat(c.get("I1-decreasing").verdict()).as("k = 1 and 2 still compare")
        .isEqualTo(Verdict.HOLDS);
  }

  /**
   * No verdict compares a number with itself: with two different made-up measurements the
   * paper's column stays the same and ours follows the measurement.
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void iamPaperValuesNeverComeFromTheMeasurement(long seed) {
    System.out.println("IamTriadClaimsTest seed " + seed);
    Random r = new Random(seed);
    double[] a = new double[7];
    double[] b = new double[7];
    for (int i = 0; i < 7; i++) {
      a[i] = 1 + 10 * r.nextDouble();
      b[i] = a[i] + 0.5 + r.nextDouble();
    }
    List<Claim> ca = IamReproduction.claims(iamConfig(),
        iamLoads(a[0], a[1], a[2], a[3], a[4], a[5], a[6]));
    List<Claim> cb = IamReproduction.claims(iamConfig(),
        iamLoads(b[0], b[1], b[2], b[3], b[4], b[5], b[6]));
    assertThat(ca).hasSameSizeAs(cb);
    for (int i = 0; i < ca.size(); i++) {
      Claim x = ca.get(i);
      Claim y = cb.get(i);
      assertThat(y.id()).isEqualTo(x.id());
      assertThat(y.paper()).as(x.id()).isEqualTo(x.paper());
      if (x.id().endsWith("-total") || x.id().startsWith("I2-") || x.id().startsWith("I7-")) {
        assertThat(y.ours()).as(x.id() + " follows the measurement").isNotEqualTo(x.ours());
      }
    }
    assertThat(byId(ca).get("I1-k1-total").ours()).isEqualTo(Numbers.format(a[2]));
    assertThat(byId(ca).get("I1-k1-total").paper()).isEqualTo("6.18");
    assertThat(byId(ca).get("A-formula4-k2").paper()).isEqualTo("Table 3: 3.88 > 2.41 > 1.90");
  }

  /**
   * A-formula4-k2 reads the measured mixed level of the k rows (what formula (4) and Table 3
   * agree on: it falls with k), never formula (4)'s absolute values, which Table 3 contradicts.
   */
  @Test
  void formulaFourClaimFollowsTheMeasuredMixedLevel() {
    Map<String, Load> m = iamLoads(3.2, 4.7, 6.0, 4.8, 4.2, 8.8, 1.02);
    Claim falls = byId(IamReproduction.claims(iamConfig(), m)).get("A-formula4-k2");
    assertThat(falls.verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(falls.ours()).isEqualTo("k = 1: 3.88, k = 2: 2.41, k = 3: 1.9");
    assertThat(falls.claim()).contains("6, 3.5, 2.667");
    m.put("iam-k3", load("iam-k3", 4.2, 1.03, 1.05, 2.5)); // k = 3 writes more than k = 2
    Claim rises = byId(IamReproduction.claims(iamConfig(), m)).get("A-formula4-k2");
    assertThat(rises.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    m.put("iam-k3", load("iam-k3", 4.2, 1.03, 1.05, 0)); // two levels only
    assertThat(byId(IamReproduction.claims(iamConfig(), m)).get("A-formula4-k2").verdict())
        .isEqualTo(Verdict.NOT_COMPARABLE);
  }
}
