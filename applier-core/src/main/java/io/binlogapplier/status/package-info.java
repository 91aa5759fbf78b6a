/**
 * What the target keeps about the applier besides its position: whether a process runs now (a
 * named lock it holds for its life and a liveness time it refreshes), the last error that stopped
 * it, and the transactions an operator skipped. Written off the apply path: none of it shares a
 * transaction with the position row, so it adds nothing to a unit's commit.
 */
package io.binlogapplier.status;
