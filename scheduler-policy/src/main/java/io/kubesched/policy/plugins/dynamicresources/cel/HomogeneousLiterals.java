package io.kubesched.policy.plugins.dynamicresources.cel;

import dev.cel.bundle.Cel;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypes;
import dev.cel.common.types.SimpleType;
import dev.cel.validator.CelAstValidator;
import java.util.List;
import java.util.Optional;

/**
 * cel-go's homogeneous aggregate literal validator, as kube enables it: every element of a list literal has the
 * first element's type, every key and value of a map literal the first entry's, except inside a call of {@code
 * format}, which cel-go's strings extension exempts. cel-java's checker option has no exemption, and its validator
 * reports a map's mismatch at the entry where cel-go reports it at the key or value; this reports as cel-go does.
 * Stateless.
 */
final class HomogeneousLiterals implements CelAstValidator {

  static final HomogeneousLiterals INSTANCE = new HomogeneousLiterals();

  private static final String EXEMPT = "format";

  private HomogeneousLiterals() {}

  @Override
  public void validate(CelNavigableAst navigable, Cel cel, IssuesFactory issues) {
    CelAbstractSyntaxTree ast = navigable.getAst();
    List<CelNavigableExpr> literals = navigable.getRoot().allNodes().filter(node -> !exempt(node)).toList();
    for (CelNavigableExpr node : literals) {
      if (node.expr().getKind() == CelExpr.ExprKind.Kind.LIST) {
        CelExpr.CelList list = node.expr().list();
        CelType first = null;
        for (int i = 0; i < list.elements().size(); i++) {
          CelExpr element = list.elements().get(i);
          CelType type = type(ast, element, list.optionalIndices().contains(i));
          if (first == null) {
            first = type;
          } else if (!first.equals(type)) {
            mismatch(issues, element.id(), first, type);
            break;
          }
        }
      }
    }
    for (CelNavigableExpr node : literals) {
      if (node.expr().getKind() == CelExpr.ExprKind.Kind.MAP) {
        CelType firstKey = null;
        CelType firstValue = null;
        for (CelExpr.CelMap.Entry entry : node.expr().map().entries()) {
          CelType key = type(ast, entry.key(), false);
          CelType value = type(ast, entry.value(), entry.optionalEntry());
          if (firstKey == null) {
            firstKey = key;
            firstValue = value;
            continue;
          }
          if (!firstKey.equals(key)) {
            mismatch(issues, entry.key().id(), firstKey, key);
          }
          if (!firstValue.equals(value)) {
            mismatch(issues, entry.value().id(), firstValue, value);
          }
        }
      }
    }
  }

  private static boolean exempt(CelNavigableExpr node) {
    for (Optional<CelNavigableExpr> parent = node.parent(); parent.isPresent(); parent = parent.get().parent()) {
      CelExpr expr = parent.get().expr();
      if (expr.getKind() == CelExpr.ExprKind.Kind.CALL && expr.call().function().equals(EXEMPT)) {
        return true;
      }
    }
    return false;
  }

  /** The type an element stands for: an optional element ({@code ?x}) for its optional's value. */
  private static CelType type(CelAbstractSyntaxTree ast, CelExpr expr, boolean optional) {
    CelType type = ast.getType(expr.id()).orElse(SimpleType.DYN);
    return optional && !type.parameters().isEmpty() ? type.parameters().get(0) : type;
  }

  private static void mismatch(IssuesFactory issues, long id, CelType expected, CelType found) {
    issues.addError(id, "expected type '" + CelTypes.format(expected) + "' but found '" + CelTypes.format(found)
        + "'");
  }
}
