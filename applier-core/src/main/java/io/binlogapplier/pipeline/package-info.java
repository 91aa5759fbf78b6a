/**
 * The running applier: wiring, ring, scheduler handler, workers, commit sequencer, and the stop and
 * failure paths that hold them together.
 *
 * <h2>Threads, what each owns, how they hand over</h2>
 * <ul>
 *   <li><b>the caller of {@link io.binlogapplier.pipeline.Applier#run}</b> (the main thread): owns
 *       the target pool and the control connection; loads the position, starts the parts below for
 *       each run of the stream, and parks until a commit, the END marker, a failure or a stop wakes
 *       it. Between runs (a lost source or target) it waits out the reconnect backoff on a
 *       {@code StopSignal}, which a stop ends at once.</li>
 *   <li><b>{@code applier-<name>-target-reconnect}</b> (one per attempt to reach a lost target):
 *       renews the pool ({@code TargetPool.renew}), kills the sessions a target that did not restart
 *       still keeps for the lost workers ({@code StaleSessions}) and reads the saved position; the main
 *       thread waits for it or for a stop, whichever comes first, so a connect into a silent network
 *       never delays a stop.</li>
 *   <li><b>{@code applier-<name>-target-watch}</b> ({@code TargetWatch}): owns a target connection;
 *       pings every second and fails the pipeline as target unreachable when a ping goes unanswered
 *       for 5 s.</li>
 *   <li><b>{@code applier-<name>-reader}</b> ({@link io.binlogapplier.binlog.BinlogReader}): owns
 *       the binlog connection. Decodes events, filters and assembles them into transactions (parts
 *       of at most 8 MB) and publishes them on the ring through {@code Publisher}, the ring's only
 *       producer, which waits for free slots and for the byte budget ({@code apply.ring_bytes}).
 *       A stop disconnects it; a stop that comes before it connects is kept and it ends without
 *       connecting. Its end publishes END.</li>
 *   <li><b>{@code applier-<name>-scheduler}</b> ({@code SchedulerHandler}): the first handler on
 *       the ring; owns a target connection for table metadata. Writes a {@code Decision} (unit,
 *       worker, what to wait for) into each slot before any worker can see it.</li>
 *   <li><b>{@code applier-<name>-worker-N}</b> ({@code ApplyWorker}, {@code apply.workers} of
 *       them): handlers after the scheduler; each owns one target connection for its life (under
 *       {@code workers: auto}, every worker but the first from its first unit on) and applies the
 *       units assigned to it. Units commit in id order through
 *       {@code CommitSequencer}, which also holds the low-water mark (the saved position) and
 *       releases the bytes of committed units back to the budget. A worker keeps its unit in a
 *       {@code UnitInProgress} and writes the position row through {@code PositionRow}; when a step
 *       of a unit fails, {@code RetryPolicy} decides what it does (retry after the earlier units,
 *       apply again as SQL, or fail), from values alone. A worker whose unit is open when
 *       it stops, or whose pipeline failed, discards its connection: the server rolls back, the
 *       pool never resets it to autocommit (which would commit).</li>
 *   <li><b>{@code applier-<name>-governor}</b> ({@code GovernorWatch}, only under
 *       {@code apply.workers: auto}): owns a target connection and reads the target's
 *       {@code Innodb_buffer_pool_reads} once a second; its {@link io.binlogapplier.schedule.WorkerGovernor}
 *       says how many workers the scheduler gives new units to (1 while the target works from
 *       memory). The count only chooses among correct schedules: what a unit waits for does not
 *       depend on which worker applies it.</li>
 *   <li><b>{@code applier-<name>-read-ahead-N}</b> ({@link io.binlogapplier.readahead.ReadAhead},
 *       {@code apply.read_ahead.connections} of them, unless it is off): each owns a READ ONLY
 *       target connection. The scheduler offers them every transaction it scheduled through a queue
 *       it never waits on; they look up the index entries its rows will touch, at most
 *       {@code apply.read_ahead.rows} row changes ahead of the oldest transaction a worker applies
 *       ({@code WorkerState.applying}). Nothing waits for them; the run thread stops them before the
 *       ring halts.</li>
 *   <li><b>{@code applier-<name>-conflicts}</b> ({@code ConflictMonitor}, with more than one
 *       worker): owns a target connection; reads lock waits and makes a later unit that blocks an
 *       earlier one give way.</li>
 *   <li><b>{@code applier-<name>-schema-watch}</b> ({@code SchemaWatch}): owns a target connection;
 *       drops the cached table definitions when DDL run on the target by someone else is seen.</li>
 *   <li><b>{@code applier-<name>-source-end}</b> ({@code SourceEndPoller}): owns a source
 *       connection; reads where the source's binlog ends, for the lag.</li>
 *   <li><b>{@code applier-<name>-durability}</b> ({@link io.binlogapplier.durability.Durability}):
 *       relaxes and restores the target's flush settings.</li>
 *   <li><b>{@code applier-<name>-liveness}</b> ({@link io.binlogapplier.status.Liveness}): owns a
 *       target connection (never returned to the pool) holding the stream's named lock for the
 *       process's life; every 2 s refreshes {@code applier_run.alive_at} and clears the last error
 *       once the applied position passed its transaction. Off the apply path: no unit waits for it.
 *       On failure the main thread writes the last error ({@code RunTable.recordError}) before it
 *       stops this thread.</li>
 *   <li><b>{@code binlog-applier-shutdown}</b> (applier-server, the JVM's SIGTERM hook): requests
 *       the stop and waits for the command to finish.</li>
 * </ul>
 *
 * <h2>Stop, in two phases</h2>
 * Request: {@code Applier.requestStop} sets its {@code StopSignal} and asks the current pipeline
 * to stop, which disconnects the reader; the reader's end publishes END; a worker drops a unit the
 * stream ended inside (nothing of it commits), the scheduler reports the last unit that will
 * commit. Await: the main thread waits, woken by commits, for that unit, bounded by the stop
 * timeout (exit 40 past it), then stops the monitor, joins the reader and halts the ring.
 *
 * <h2>Failure</h2>
 * The first failure on any thread wins ({@code FailureLatch}; an Error such as OutOfMemoryError
 * included, through the ring's {@code FailClosed} handler or the reader's own catch). It wakes every
 * waiter; the main thread cuts every worker's connection at once, so no unit commits after it and
 * no part of a source transaction is ever committed; the saved position stays at the last unit
 * committed in order. Connections that may sit in a query (the conflict monitor's, the scheduler's,
 * the watch's) are cut too, not closed: closing waits for the query, which waits for a lost target.
 *
 * <h2>Outages</h2>
 * A failure the classifier answers with RECONNECT for the target ({@code TARGET_UNREACHABLE}) ends
 * the pipeline exactly as any failure, then {@code Applier} reconnects and starts a new pipeline from
 * the saved position, as it does after a lost source ({@code Ending.SOURCE_LOST}); both sides count
 * attempts against their {@code reconnect_attempts} ({@code forever} by default).
 */
package io.binlogapplier.pipeline;
