package io.kubesched.policy;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * The library's text output in one place: aligned tables (explanations, what-if answers) and quantities written as
 * kube's canonical ones. Pure.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class Texts {

  private static final String[] BINARY_SUFFIXES = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

  private Texts() {}

  /**
   * @param rows the rows, the header first, each with the same number of cells
   * @return the rows as left-aligned columns two spaces apart, each line without trailing spaces
   */
  public static String table(List<? extends List<String>> rows) {
    var widths = new int[rows.get(0).size()];
    for (var row : rows) {
      for (int i = 0; i < row.size(); i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    var text = new StringBuilder();
    for (var row : rows) {
      var line = new StringBuilder();
      for (int i = 0; i < row.size(); i++) {
        // Padded by hand: a column of empty cells has width 0, which a format cannot take.
        line.append(row.get(i)).append(" ".repeat(widths[i] - row.get(i).length()));
        if (i < row.size() - 1) {
          line.append("  ");
        }
      }
      text.append(line.toString().stripTrailing()).append('\n');
    }
    return text.toString();
  }

  /** @return CPU as kube writes it: {@code 2} for whole cores, else millicores ({@code 500m}) */
  public static String cpu(long milliCpu) {
    return milliCpu % 1000 == 0 ? String.valueOf(milliCpu / 1000) : milliCpu + "m";
  }

  /** @return bytes with the largest binary suffix that divides them exactly ({@code 256Mi}), as kube's canonical quantities */
  public static String bytes(long bytes) {
    if (bytes == 0 || bytes == Long.MAX_VALUE) {
      return String.valueOf(bytes);
    }
    int suffix = -1;
    long amount = bytes;
    while (suffix < BINARY_SUFFIXES.length - 1 && amount % 1024 == 0) {
      amount /= 1024;
      suffix++;
    }
    return suffix < 0 ? String.valueOf(amount) : amount + BINARY_SUFFIXES[suffix];
  }
}
