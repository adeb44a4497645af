/**
 * The LSA-tree and the IAM-tree (Gong et al., ICPP 2019) as merge policies: levels of nodes with
 * disjoint key ranges, each node holding several sorted sequences; a full node is flushed to its
 * children by appending a sequence to each child or merging with it, nodes with too many children
 * are split, levels with too many nodes are combined, and a node without children moves down by
 * a metadata change only. {@link org.strata.policy.iam.AppendMergeTreePolicy} decides; {@link
 * org.strata.policy.iam.TreeLayout} reads the node structure from the run list; {@link
 * org.strata.policy.iam.ShapeSelector} chooses IAM's mixed level and sequence limit from the memory
 * size; {@link org.strata.policy.iam.AmplificationModel} holds the paper's analytic formulas.
 */
package org.strata.policy.iam;
