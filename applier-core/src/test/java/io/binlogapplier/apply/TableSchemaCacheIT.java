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
}
