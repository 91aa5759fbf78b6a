package io.binlogapplier.filter;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.QueryStatus;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.transaction.Change;
import io.binlogapplier.transaction.CommitGroup;
import io.binlogapplier.transaction.Transaction;
import io.binlogapplier.transaction.TransactionEnd;
import io.binlogapplier.transaction.TransactionHead;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The statement stage: which statements are applied, skipped or stop the applier, and how they are renamed. */
class StatementFilterTest {
    private static final int UTF8MB4 = 45;
    private static final int GBK = 28;
    private static final Map<Integer, String> CHARSETS = Map.of(UTF8MB4, "utf8mb4", GBK, "gbk", 8, "latin1");

    private final List<Transaction> out = new ArrayList<>();

    private StatementFilter stage(List<String> include, List<String> exclude, Map<String, String> rename) {
        return new StatementFilter(ReplicationFilterTest.filter(include, exclude, rename), CHARSETS::get);
    }

    /** What the assembler does with a part: the filter's result goes on. */
    private void run(StatementFilter f, Transaction t) {
        out.add(f.apply(t));
    }

    /** The filter of src/test/resources/filter/statements.txt. */
    private StatementFilter theCasesFilter() {
        return stage(List.of("shop.*", "crm.*", "app_%.orders"), List.of("shop.tmp_*", "*.audit_log"),
            Map.of("shop", "shop_replica"));
    }

    static Change.Statement statement(String db, byte[] sql, Long sqlMode, int charset) {
        QueryStatus status = new QueryStatus(null, sqlMode, charset, charset, charset, null, null, null, null, null,
            null, null);
        return new Change.Statement(db, sql, status, true, 1_700_000_000L, null, null, null, sql.length + 64L);
    }

    static Transaction transaction(Change... changes) {
        boolean statements = false;
        boolean implicit = false;
        long bytes = 0;
        for (Change c : changes) {
            bytes += c.sizeBytes();
            if (c instanceof Change.Statement s) {
                statements = true;
                implicit |= s.implicitCommit();
            }
        }
        TransactionHead head = new TransactionHead(7, null, CommitGroup.NONE,
            new BinlogCoordinates("mysql-bin.000001", 400), 1_700_000_000L, null);
        return new Transaction(head, 0, List.of(changes), bytes,
            new TransactionEnd(new BinlogCoordinates("mysql-bin.000001", 500), 0, false), implicit, statements);
    }

    static Stream<Arguments> cases() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        try (InputStream in = StatementFilterTest.class.getResourceAsStream("/filter/statements.txt")) {
            int n = 0;
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                n++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split(" \\|\\| ");
                if (f.length != 4) {
                    throw new IllegalArgumentException("statements.txt line " + n + ": expected 4 fields: " + line);
                }
                cases.add(Arguments.of(n, f[0].trim(), f[1].trim(), f[2].trim(), f[3].trim()));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "line {0}: {2}")
    @MethodSource("cases")
    void statementsAreAppliedRenamedSkippedOrStoppedAsTheTableSays(int line, String db, String sql, String appliedDb,
                                                                    String outcome) {
        StatementFilter f = theCasesFilter();
        Transaction t = transaction(statement(db.equals("-") ? null : db, sql.getBytes(StandardCharsets.UTF_8), null,
            UTF8MB4));

        if (outcome.equals("STOP")) {
            assertThatThrownBy(() -> run(f, t)).isInstanceOf(ApplierException.class)
                .satisfies(e -> assertThat(((ApplierException) e).exitCode())
                    .isEqualTo(ExitCode.SOURCE_STATEMENT_UNFILTERABLE));
            assertThat(out).isEmpty();
            return;
        }
        run(f, t);

        assertThat(out).hasSize(1);
        List<Change> changes = out.get(0).changes();
        if (outcome.equals("SKIP")) {
            assertThat(changes).isEmpty();
            assertThat(out.get(0).implicitCommit()).as("no DDL left: not a barrier").isFalse();
            return;
        }
        assertThat(changes).hasSize(1);
        Change.Statement applied = (Change.Statement) changes.get(0);
        assertThat(new String(applied.sql(), StandardCharsets.UTF_8)).isEqualTo(outcome);
        assertThat(applied.database()).isEqualTo(appliedDb.equals("-") ? null : appliedDb);
    }

    @Test
    void aStatementThatCannotBeSplitNamesBothSidesAndHowToSkipIt() {
        StatementFilter f = theCasesFilter();
        Transaction t = transaction(statement(null, "DROP TABLE shop.a, shop.tmp_b".getBytes(StandardCharsets.UTF_8),
            null, UTF8MB4));

        assertThatThrownBy(() -> run(f, t)).hasMessageContaining("`shop`.`a`, which the filter applies")
            .hasMessageContaining("`shop`.`tmp_b`, which it leaves out").hasMessageContaining("cannot be split")
            .hasMessageContaining("source.start: \"mysql-bin.000001:500\"").hasMessageNotContaining("\n");
    }

    @Test
    void aTransactionWithNothingToChangeIsPassedOnAsItIs() {
        StatementFilter f = theCasesFilter();
        Transaction t = transaction(statement("crm", "CREATE TABLE x (id INT)".getBytes(StandardCharsets.UTF_8), null,
            UTF8MB4));

        run(f, t);

        assertThat(out).containsExactly(t);
    }

    @Test
    void skippedStatementsLeaveTheirTransactionWithItsOtherChangesAndFewerBytes() {
        StatementFilter f = theCasesFilter();
        Change.Statement skipped = statement("shop", "INSERT INTO tmp_1 VALUES (1)".getBytes(StandardCharsets.UTF_8),
            null, UTF8MB4);
        Change.Statement kept = statement("crm", "INSERT INTO c VALUES (1)".getBytes(StandardCharsets.UTF_8), null,
            UTF8MB4);
        Transaction t = transaction(skipped, kept);

        run(f, t);

        Transaction passed = out.get(0);
        assertThat(passed.changes()).containsExactly(kept);
        assertThat(passed.sizeBytes()).isEqualTo(t.sizeBytes() - skipped.sizeBytes());
        assertThat(passed.hasStatements()).isTrue();
        assertThat(passed.end()).isEqualTo(t.end());
        assertThat(passed.head()).isEqualTo(t.head());
    }

    @Test
    void accountStatementsFollowTheMysqlSchemaAndTheirGrantTargetIsRenamed() {
        StatementFilter f = stage(List.of(), List.of(), Map.of("shop", "shop_replica"));

        run(f, transaction(statement(null, "GRANT SELECT ON shop.* TO 'u'@'%'".getBytes(StandardCharsets.UTF_8),
            null, UTF8MB4)));
        run(f, transaction(statement(null, "GRANT SELECT ON TABLE `shop`.`t` TO u".getBytes(
            StandardCharsets.UTF_8), null, UTF8MB4)));

        assertThat(sql(out.get(0))).isEqualTo("GRANT SELECT ON `shop_replica`.* TO 'u'@'%'");
        assertThat(sql(out.get(1))).isEqualTo("GRANT SELECT ON TABLE `shop_replica`.`t` TO u");
        StatementFilter noMysql = stage(List.of(), List.of("mysql.*"), Map.of());
        run(noMysql, transaction(statement(null, "DROP USER u".getBytes(StandardCharsets.UTF_8), null,
            UTF8MB4)));
        assertThat(out.get(2).changes()).isEmpty();
    }

    @Test
    void underAnsiQuotesDoubleQuotesNameSchemas() {
        StatementFilter f = theCasesFilter();

        run(f, transaction(statement(null, "CREATE TABLE \"shop\".\"t\" (a INT)".getBytes(
            StandardCharsets.UTF_8), StatementFilter.MODE_ANSI_QUOTES, UTF8MB4)));

        assertThat(sql(out.get(0))).isEqualTo("CREATE TABLE `shop_replica`.\"t\" (a INT)");
    }

    @Test
    void withoutBackslashEscapesABackslashEndsNoString() {
        StatementFilter f = theCasesFilter();
        String text = "INSERT INTO c VALUES ('a\\', shop.t.x)";

        run(f, transaction(statement("crm", text.getBytes(StandardCharsets.UTF_8),
            StatementFilter.MODE_NO_BACKSLASH_ESCAPES, UTF8MB4)));
        assertThatThrownBy(() -> run(f, transaction(statement("crm", "INSERT INTO c VALUES ('a\\', shop.x)"
            .getBytes(StandardCharsets.UTF_8), StatementFilter.MODE_NO_BACKSLASH_ESCAPES, UTF8MB4))))
            .isInstanceOf(ApplierException.class);

        assertThat(sql(out.get(0))).isEqualTo("INSERT INTO c VALUES ('a\\', `shop_replica`.t.x)");
    }

    @Test
    void nonAsciiNamesInUtf8AndLatin1StatementsAreRead() {
        StatementFilter f = stage(List.of(), List.of("café.*"), Map.of("shop", "shop_replica"));

        run(f, transaction(statement(null, "CREATE TABLE café.t (a INT)".getBytes(StandardCharsets.UTF_8),
            null, UTF8MB4)));
        run(f, transaction(statement(null, "CREATE TABLE café.t (a INT)".getBytes(Charset.forName(
            "windows-1252")), null, 8)));
        run(f, transaction(statement(null, "CREATE TABLE shop.`été` (a INT)".getBytes(StandardCharsets.UTF_8),
            null, UTF8MB4)));

        assertThat(out.get(0).changes()).isEmpty();
        assertThat(out.get(1).changes()).isEmpty();
        assertThat(sql(out.get(2))).isEqualTo("CREATE TABLE `shop_replica`.`été` (a INT)");
    }

    @Test
    void inACharacterSetWhoseCharactersMayHoldQuotesOnlyTheDefaultDatabaseDecides() {
        StatementFilter f = theCasesFilter();
        byte[] gbk = "INSERT INTO t VALUES ('数据')".getBytes(Charset.forName("GBK"));

        run(f, transaction(statement("other", gbk, null, GBK)));
        run(f, transaction(statement("shop", gbk, null, GBK)));
        byte[] mentionsShop = "INSERT INTO shop.t VALUES ('数据')".getBytes(Charset.forName("GBK"));

        assertThat(out.get(0).changes()).isEmpty();
        assertThat(((Change.Statement) out.get(1).changes().get(0)).database()).isEqualTo("shop_replica");
        assertThat(((Change.Statement) out.get(1).changes().get(0)).sql()).isEqualTo(gbk);
        assertThatThrownBy(() -> run(f, transaction(statement("crm", mentionsShop, null, GBK))))
            .hasMessageContaining("character set gbk");
    }

    @Test
    void aSourceSchemaNamedLikeARenameTargetStopsWithTheConfigurationExitCode() {
        StatementFilter open = stage(List.of(), List.of(), Map.of("shop", "shop_replica"));

        assertThatThrownBy(() -> run(open, transaction(statement(null, "CREATE DATABASE shop_replica"
            .getBytes(StandardCharsets.UTF_8), null, UTF8MB4))))
            .satisfies(e -> assertThat(((ApplierException) e).exitCode()).isEqualTo(ExitCode.CONFIG));
    }

    /**
     * Savepoint statements belong to the transaction, not to a schema: skipped by their default database,
     * the source's ROLLBACK TO SAVEPOINT (logged as a statement when a non-transactional table changed) was
     * lost, and rows the source rolled back committed on the target.
     */
    @Test
    void savepointStatementsAreKeptWhateverTheirDefaultDatabase() {
        StatementFilter f = theCasesFilter();
        for (String sp : List.of("SAVEPOINT s1", "ROLLBACK TO SAVEPOINT s1", "rollback to s1", "RELEASE SAVEPOINT s1")) {
            out.clear();
            run(f, transaction(statement("other", sp.getBytes(StandardCharsets.UTF_8), null, UTF8MB4)));

            assertThat(out.get(0).changes()).as(sp).hasSize(1);
            assertThat(sql(out.get(0))).isEqualTo(sp);
        }
    }

    /**
     * A trigger is created by its table's rule and dropped by its schema's: with a table rule in the
     * schema, the drop may name a trigger the target never got, so it goes as DROP TRIGGER IF EXISTS (it
     * failed with 1360 and stopped the applier). A schema applied whole keeps the plain drop.
     */
    @Test
    void aDropTriggerInASchemaWithTableRulesGoesAsIfExists() {
        StatementFilter tableRule = stage(List.of("shop.orders"), List.of(), Map.of("shop", "shop_replica"));
        StatementFilter wholeSchema = stage(List.of("shop.*"), List.of(), Map.of());

        run(tableRule, transaction(statement("shop", "DROP TRIGGER trg".getBytes(StandardCharsets.UTF_8), null,
            UTF8MB4)));
        run(tableRule, transaction(statement("other", "drop trigger shop.trg".getBytes(StandardCharsets.UTF_8), null,
            UTF8MB4)));
        run(tableRule, transaction(statement("shop", "DROP TRIGGER IF EXISTS trg".getBytes(StandardCharsets.UTF_8),
            null, UTF8MB4)));
        run(wholeSchema, transaction(statement("shop", "DROP TRIGGER trg".getBytes(StandardCharsets.UTF_8), null,
            UTF8MB4)));

        assertThat(sql(out.get(0))).isEqualTo("DROP TRIGGER IF EXISTS trg");
        assertThat(sql(out.get(1))).isEqualTo("drop trigger IF EXISTS `shop_replica`.trg");
        assertThat(sql(out.get(2))).isEqualTo("DROP TRIGGER IF EXISTS trg");
        assertThat(sql(out.get(3))).isEqualTo("DROP TRIGGER trg");
    }

    private static String sql(Transaction t) {
        return new String(((Change.Statement) t.changes().get(0)).sql(), StandardCharsets.UTF_8);
    }
}
