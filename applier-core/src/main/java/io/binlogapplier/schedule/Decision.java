package io.binlogapplier.schedule;

import io.binlogapplier.position.SourcePosition;

/**
 * The scheduler's verdict on one transaction part.
 *
 * @param unitId the apply unit it belongs to (1, 2, 3 … in commit order)
 * @param worker the worker that applies that unit
 * @param unitStart this part opens the unit: the worker waits until unit {@code waitFor} committed
 * @param waitFor unit id that must be committed before this unit starts (0: none)
 * @param unitEnd this part closes the unit: the worker writes {@code positionAfter} and commits
 * @param positionAfter the position once the unit committed (set when unitEnd)
 * @param transactions number of source transactions in the unit (set when unitEnd)
 * @param barrier the unit runs alone
 * @param pending the unit is recorded as pending before it runs (see {@link TransactionTraits#pending()})
 * @param joinWait unit id that must be committed before this part is applied, inside its unit (0: none);
 *     set only on a deferred part
 * @param deferred optimistic mode: this transaction joins the open unit's <em>tail</em>, which the
 *     worker applies after the unit's other transactions, once every tail transaction's
 *     {@code joinWait} committed. A transaction goes there when it shares a key with an earlier unit
 *     still in flight, or with a transaction already in the tail (see {@link UnitScheduler})
 */
public record Decision(long unitId, int worker, boolean unitStart, long waitFor, boolean unitEnd,
                       SourcePosition positionAfter, int transactions, boolean barrier, boolean pending,
                       long joinWait, boolean deferred) {
    public Decision(long unitId, int worker, boolean unitStart, long waitFor, boolean unitEnd,
                    SourcePosition positionAfter, int transactions, boolean barrier, boolean pending) {
        this(unitId, worker, unitStart, waitFor, unitEnd, positionAfter, transactions, barrier, pending, 0, false);
    }
}
