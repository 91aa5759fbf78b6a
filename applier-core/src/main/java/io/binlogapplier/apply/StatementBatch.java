package io.binlogapplier.apply;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Row statements written as text (see {@link SqlLiteral}) and sent together, in order, as one
 * multi-statement query: one round trip for many row changes where a prepared statement costs one
 * each. Each statement has a check of the rows it reports (found, for UPDATE and DELETE).
 *
 * <p>The server runs the statements one after the other and stops at the first that fails; the
 * driver then reports the error without saying which statement it was. The failure therefore names
 * the transactions the batch spans, and a data conflict is worth applying again statement by
 * statement, which names the row ({@link TransactionApplier#mayNameTheRowByApplyingInOrder}).
 *
 * <p>Everything else sent on the connection must wait until the batch is {@link #send sent}: the
 * owner sends it before any other statement. Owned by one worker; not thread-safe.
 */
final class StatementBatch {
    /** What a statement's reported row count must be; throws (an ApplierException) when it is not. */
    interface Check {
        Check NONE = count -> { };

        void verify(long count);
    }

    /** Turns the server's error into what the worker gets (see RowApplier's failure). */
    interface Failure {
        SQLException of(SQLException e, String what, String where);
    }

    private final Connection connection;
    private final int maxStatements;
    private final int maxChars;
    private final StringBuilder sql;
    private final List<Check> checks = new ArrayList<>();
    private String firstWhere;
    private String lastWhere;
    private Statement statement;

    /**
     * @param maxStatements most statements per round trip
     * @param maxChars characters of text after which the batch is full (stay well under the
     *     server's max_allowed_packet)
     */
    StatementBatch(Connection connection, int maxStatements, int maxChars) {
        this.connection = connection;
        this.maxStatements = maxStatements;
        this.maxChars = maxChars;
        this.sql = new StringBuilder(Math.min(maxChars, 1 << 16));
    }

    /** Characters a statement may have to join the batch; a longer one is prepared instead. */
    int maxChars() {
        return maxChars;
    }

    /** Where to write the next statement, for the transaction {@code where} names; then {@link #added} or {@link #undo}. */
    StringBuilder next(String where) {
        if (!checks.isEmpty()) {
            sql.append(";\n");
        }
        if (firstWhere == null) {
            firstWhere = where;
        }
        lastWhere = where;
        return sql;
    }

    /** The statement just written joins the batch. */
    void added(Check check) {
        checks.add(check);
    }

    /** Takes back a statement partly written after {@code mark} (the sql length before {@link #next}). */
    void undo(int mark) {
        sql.setLength(mark);
        if (checks.isEmpty()) {
            firstWhere = null;
        }
    }

    /** The length of the text so far, for {@link #undo}. */
    int mark() {
        return sql.length();
    }

    /** It should be sent before another statement joins. */
    boolean full() {
        return checks.size() >= maxStatements || sql.length() >= maxChars;
    }

    /**
     * Sends every statement of the batch and checks what each reports.
     *
     * @throws SQLException what {@code failure} makes of the server's error (it may throw instead)
     */
    void send(Failure failure) throws SQLException {
        if (checks.isEmpty()) {
            return;
        }
        String text = sql.toString();
        int n = checks.size();
        String where = firstWhere.equals(lastWhere) ? firstWhere : firstWhere + " to " + lastWhere;
        List<Check> verify = new ArrayList<>(checks);
        discard();
        try {
            if (statement == null) {
                statement = connection.createStatement();
            }
            boolean resultSet = statement.execute(text);
            int k = 0;
            while (true) {
                if (resultSet) {
                    throw new IllegalStateException("a row statement returned rows: " + abbreviate(text));
                }
                long count = statement.getLargeUpdateCount();
                if (count == -1) {
                    break;
                }
                if (k >= n) {
                    throw new IllegalStateException("more results than the " + n + " statements sent");
                }
                verify.get(k++).verify(count);
                resultSet = statement.getMoreResults();
            }
            if (k != n) {
                throw new IllegalStateException(k + " results for the " + n + " statements sent");
            }
        } catch (SQLException e) {
            throw failure.of(e, n == 1 ? "a row statement" : "one of " + n + " row statements sent together", where);
        }
    }

    /** Drops what was not sent (the unit is being rolled back). */
    void discard() {
        sql.setLength(0);
        if (sql.capacity() > 4 * maxChars) {
            sql.trimToSize();
        }
        checks.clear();
        firstWhere = null;
        lastWhere = null;
    }

    private static String abbreviate(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }

    void close() {
        if (statement != null) {
            try {
                statement.close();
            } catch (SQLException ignored) {
                // the connection may be gone
            }
            statement = null;
        }
    }
}
