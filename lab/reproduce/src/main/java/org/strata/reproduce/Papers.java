package org.strata.reproduce;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** The papers that can be reproduced (every {@link PaperReproduction} on the class path). */
public final class Papers {
  /** The scales every paper ships a configuration for. */
  public static final List<String> SCALES = List.of("tiny", "quick", "paper");

  private final List<PaperReproduction> papers;

  private Papers(List<PaperReproduction> papers) {
    this.papers = papers;
  }

  /** The papers found by {@link ServiceLoader} with {@code loader}, sorted by name. */
  public static Papers load(ClassLoader loader) {
    List<PaperReproduction> found = new ArrayList<>();
    ServiceLoader.load(PaperReproduction.class, loader).forEach(found::add);
    found.sort(Comparator.comparing(PaperReproduction::name));
    return new Papers(List.copyOf(found));
  }

  /** The names, sorted. */
  public List<String> names() {
    return papers.stream().map(PaperReproduction::name).toList();
  }

  /**
   * The paper called {@code name}.
   *
   * @throws IllegalArgumentException naming the papers there are
   */
  public PaperReproduction named(String name) {
    for (PaperReproduction p : papers) {
      if (p.name().equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown paper '" + name + "'; the papers are "
        + String.join(", ", names()));
  }

  /**
   * The configuration {@code paper} ships for {@code scale}.
   *
   * @throws IllegalArgumentException for a scale other than {@link #SCALES}
   */
  public static JsonNode configuration(PaperReproduction paper, String scale, ObjectMapper json)
      throws IOException {
    if (!SCALES.contains(scale)) {
      throw new IllegalArgumentException("unknown scale '" + scale + "'; use one of "
          + String.join(", ", SCALES) + ", or --config FILE");
    }
    String resource = "/reproduce/" + paper.name() + "-" + scale + ".json";
    try (InputStream in = paper.getClass().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("paper " + paper.name() + " ships no " + resource);
      }
      return json.readTree(in);
    }
  }
}
