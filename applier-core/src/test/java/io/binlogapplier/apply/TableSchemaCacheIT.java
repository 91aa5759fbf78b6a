package io.binlogapplier.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.binlogapplier.harness.MariaDbServers;

import java.sql.Connection;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Which tables are foreign-key parents, read from a real target: a parent referenced from another
 * schema counts, a table nobody references does not, and a foreign key added later is seen after the
 * next DDL. The server's foreign keys are read once for all the tables loaded between two DDLs (a
 * per-table query on the parent's name makes the server open every table it has).
 */
class TableSchemaCacheIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    @Test
    void parentsAreFoundAcrossSchemasWithOneReadOfTheForeignKeysPerDdl() throws Exception {
        SERVERS.target().execute(
            "CREATE DATABASE fkp", "CREATE DATABASE fkc",
            "CREATE TABLE fkp.parent (id INT PRIMARY KEY)",
            "CREATE TABLE fkp.Upper (id INT PRIMARY KEY)",
            "CREATE TABLE fkp.lonely (id INT PRIMARY KEY)",
            "CREATE TABLE fkp.sibling (id INT PRIMARY KEY, p INT, FOREIGN KEY (p) REFERENCES fkp.Upper (id))",
            // the child lives in another schema than its parent
            "CREATE TABLE fkc.child (id INT PRIMARY KEY, p INT, l INT, FOREIGN KEY (p) REFERENCES fkp.parent (id))");
        TableSchemaCache cache = new TableSchemaCache();
        try (Connection c = SERVERS.target().connect()) {
            assertThat(cache.get("fkp", "parent", c).referenced()).as("fkp.parent").isTrue();
            assertThat(cache.get("fkp", "Upper", c).referenced()).as("fkp.Upper").isTrue();
            assertThat(cache.get("fkp", "lonely", c).referenced()).as("fkp.lonely").isFalse();
            TableSchema sibling = cache.get("fkp", "sibling", c);
            assertThat(sibling.referenced()).as("fkp.sibling").isFalse();
            assertThat(sibling.foreignKeys()).as("fkp.sibling's own key").hasSize(1);
            TableSchema child = cache.get("fkc", "child", c);
            assertThat(child.referenced()).as("fkc.child").isFalse();
            assertThat(child.orderedApplyReason()).isEqualTo("child of a foreign key");
            assertThat(cache.parentScans()).as("reads of the server's foreign keys for five tables").isEqualTo(1);

            SERVERS.target().execute("ALTER TABLE fkc.child ADD FOREIGN KEY (l) REFERENCES fkp.lonely (id)");
            assertThat(cache.get("fkp", "lonely", c).referenced()).as("cached until a DDL").isFalse();
            cache.invalidateAll();
            TableSchema lonely = cache.get("fkp", "lonely", c);
            assertThat(lonely.referenced()).as("fkp.lonely after the DDL").isTrue();
            assertThat(lonely.orderedApplyReason()).isEqualTo("parent of a foreign key");
            assertThat(cache.get("fkp", "parent", c).referenced()).isTrue();
            assertThat(cache.parentScans()).as("one more read after the DDL").isEqualTo(2);
        }
    }

    /**
     * After a DDL from the source the cache forgets only what the statement may have changed: the tables
     * it names, the tables foreign keys link and those with triggers (a DROP FOREIGN KEY or DROP TRIGGER
     * names neither), and tables whose names are not plain ASCII. It forgot every table, and reading them
     * all again after each DDL cost a few ms a table.
     */
    @Test
    void aDdlForgetsTheTablesItMayChangeAndKeepsTheOthers() throws Exception {
        SERVERS.target().execute(
            "CREATE DATABASE fg",
            "CREATE TABLE fg.plain (id INT PRIMARY KEY)",
            "CREATE TABLE fg.other (id INT PRIMARY KEY)",
            "CREATE TABLE fg.par (id INT PRIMARY KEY)",
            "CREATE TABLE fg.kid (id INT PRIMARY KEY, p INT, FOREIGN KEY (p) REFERENCES fg.par (id))",
            "CREATE TABLE fg.trg (id INT PRIMARY KEY)",
            "CREATE TRIGGER fg.trg_ai AFTER INSERT ON fg.trg FOR EACH ROW SET @x = 1",
            "CREATE TABLE fg.`odd-name` (id INT PRIMARY KEY)");
        TableSchemaCache cache = new TableSchemaCache();
        java.util.List<String> names = java.util.List.of("plain", "other", "par", "kid", "trg", "odd-name");
        try (Connection c = SERVERS.target().connect()) {
            for (String n : names) {
                cache.get("fg", n, c);
            }
            cache.invalidateAfter("CREATE TABLE fg.newcomer (id INT PRIMARY KEY)".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThat(names.stream().filter(n -> cache.cached("fg", n) != null))
                .as("kept after a DDL that names none of them").containsExactly("plain", "other");

            for (String n : names) {
                cache.get("fg", n, c);
            }
            long scans = cache.parentScans();
            cache.invalidateAfter("/* x */ ALTER TABLE `fg`.`PLAIN` ADD COLUMN c INT".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThat(names.stream().filter(n -> cache.cached("fg", n) != null))
                .as("kept after a DDL on plain (named in another case)").containsExactly("other");
            cache.get("fg", "par", c);
            assertThat(cache.parentScans()).as("the foreign keys are read again").isEqualTo(scans + 1);

            cache.get("fg", "plain", c);
            cache.invalidateAfter("ALTER TABLE fg.others ADD COLUMN plainly INT".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThat(names.stream().filter(n -> cache.cached("fg", n) != null))
                .as("names are whole words: others is not other, plainly not plain").containsExactly("plain", "other");

            cache.invalidateAfter("DROP DATABASE elsewhere".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThat(names.stream().filter(n -> cache.cached("fg", n) != null))
                .as("a DROP DATABASE forgets everything").isEmpty();
        }
    }

    @Test
    void theDictionaryNamesTheSameParentsAndChildrenAsKeyColumnUsageAndGivesWayWhereItCannot() throws Exception {
        SERVERS.target().execute(
            "CREATE DATABASE dfp", "CREATE DATABASE dfc",
            "CREATE TABLE dfp.parent (id INT PRIMARY KEY, code INT UNIQUE)",
            "CREATE TABLE dfp.Other (id INT PRIMARY KEY)",
            "CREATE TABLE dfc.child (id INT PRIMARY KEY, p INT, c INT, o INT, FOREIGN KEY (p) REFERENCES dfp.parent (id),"
                + " FOREIGN KEY (c) REFERENCES dfp.parent (code), FOREIGN KEY (o) REFERENCES dfp.Other (id))",
            "CREATE TABLE dfp.self (id INT PRIMARY KEY, up INT, FOREIGN KEY (up) REFERENCES dfp.self (id))",
            "CREATE USER 'noprocess'@'%' IDENTIFIED BY 'pw'", "GRANT SELECT ON *.* TO 'noprocess'@'%'");
        try (Connection c = SERVERS.target().connect(); Connection limited = SERVERS.target().connect("noprocess", "pw")) {
            var fromDictionary = TableSchemaLoader.fromDictionary(c);
            assertThat(fromDictionary).as("read from the dictionary as root").isNotNull();
            assertThat(fromDictionary).isEqualTo(TableSchemaLoader.fromKeyColumnUsage(c));
            assertThat(fromDictionary.get(TableSchemaLoader.parentKey("dfp", "parent")))
                .as("the child once, for two foreign keys").containsExactly(new TableSchemaCache.TableName("dfc", "child"));
            assertThat(fromDictionary.get(TableSchemaLoader.parentKey("dfp", "other")))
                .containsExactly(new TableSchemaCache.TableName("dfc", "child"));
            assertThat(fromDictionary.get(TableSchemaLoader.parentKey("dfp", "self")))
                .containsExactly(new TableSchemaCache.TableName("dfp", "self"));

            assertThat(TableSchemaLoader.fromDictionary(limited)).as("without the PROCESS privilege").isNull();
            assertThat(TableSchemaLoader.referencedTables(limited)).isEqualTo(fromDictionary);

            SERVERS.target().execute("CREATE TABLE `dfc`.`odd-name` (id INT PRIMARY KEY, p INT,"
                + " FOREIGN KEY (p) REFERENCES dfp.parent (id))");
            assertThat(TableSchemaLoader.fromDictionary(c)).as("a name the dictionary encodes").isNull();
            assertThat(new TableSchemaCache().children("dfp", "parent", c)).containsExactlyInAnyOrder(
                new TableSchemaCache.TableName("dfc", "child"), new TableSchemaCache.TableName("dfc", "odd-name"));
        }
    }
}
