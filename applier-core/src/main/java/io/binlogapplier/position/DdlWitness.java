package io.binlogapplier.position;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;

/**
 * Tells, after a crash, whether a DDL marked pending ran. A DDL cannot share a transaction with the
 * position row, so a crash between the two leaves the position before it and the DDL done. Most DDL
 * then fails when replayed ("already exists"), and the replay skips that error; but some succeeds
 * again with another result: {@code RENAME TABLE a TO t, b TO a, t TO b} swaps the tables back, and
 * {@code ALTER TABLE … EXCHANGE PARTITION} exchanges the rows back, with every later row change then
 * landing in the wrong table.
 *
 * <p>So, with the pending mark, a digest of the target's InnoDB dictionary is recorded: every table's
 * (and partition's) name, id and column count, and every index's table id and name, from
 * {@code information_schema.INNODB_SYS_TABLES} and {@code INNODB_SYS_INDEXES} (MySQL 8:
 * {@code INNODB_TABLES}, {@code INNODB_INDEXES}). A rename, an exchange, a rebuild, a new or dropped
 * table, column or index changes it. After a crash, a digest that differs from the recorded one proves
 * that the DDL ran (nothing else runs in between: a DDL is applied alone), and the unit is not applied
 * again; an equal digest (the DDL did not run, or changed nothing the dictionary shows: a trigger, a
 * view, an account) leaves the replay as it was. Reading those views needs the PROCESS privilege;
 * without it nothing is recorded and the replay is as before.
 *
 * <p>The record is one row per stream in {@code <state_schema>.applier_ddl_witness}, keyed by the pending
 * unit's position, written in the transaction that marks the unit pending and kept when the same unit
 * is marked again by its replay (the digest must be the one from before the DDL).
 */
public final class DdlWitness {
    private static final Logger log = LoggerFactory.getLogger(DdlWitness.class);
    public static final String TABLE = "applier_ddl_witness";

    private static final String[][] DICTIONARY = {
        {"SELECT NAME, TABLE_ID, N_COLS FROM information_schema.INNODB_SYS_TABLES ORDER BY TABLE_ID",
            "SELECT TABLE_ID, NAME FROM information_schema.INNODB_SYS_INDEXES ORDER BY TABLE_ID, INDEX_ID"},
        {"SELECT NAME, TABLE_ID, N_COLS FROM information_schema.INNODB_TABLES ORDER BY TABLE_ID",
            "SELECT TABLE_ID, NAME FROM information_schema.INNODB_INDEXES ORDER BY TABLE_ID, INDEX_ID"},
    };

    private final String qualified;
    private final String stream;

    public DdlWitness(String schema, String stream) {
        this.qualified = "`" + schema.replace("`", "``") + "`.`" + TABLE + "`";
        this.stream = stream;
    }

    /** Creates the table if missing. */
    public void ensureTable(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + qualified + " ("
                + " stream VARCHAR(64) NOT NULL PRIMARY KEY,"
                + " binlog_file VARCHAR(512) NOT NULL,"
                + " binlog_offset BIGINT UNSIGNED NOT NULL,"
                + " dictionary CHAR(64) NOT NULL,"
                + " names MEDIUMTEXT NOT NULL,"
                + " updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6)"
                + ") ENGINE=InnoDB COMMENT='binlog-applier: the target dictionary before a pending DDL'");
        }
    }

    /**
     * The words of a statement that may name a table: its identifiers, lower-cased. The digest covers only
     * the tables so named, so that DDL elsewhere on the target (another applier's stream, an application)
     * meanwhile cannot pass for this one's. Unlike {@code TableSchemaCache.invalidateAfter}, which splits
     * the statement's raw bytes and needs only plain ASCII names (it forgets every other table anyway),
     * this reads the decoded text and keeps letters of any script and {@code @} (the dictionary's
     * {@code @XXXX} encoding), so that a table of such a name still matches.
     */
    public static java.util.Set<String> names(String sql) {
        java.util.Set<String> words = new java.util.TreeSet<>();
        for (String w : sql.toLowerCase(java.util.Locale.ROOT).split("[^\\p{L}\\p{N}_$@]+")) {
            if (!w.isEmpty()) {
                words.add(w);
            }
        }
        return words;
    }

    /**
     * The table a dictionary name ({@code db/table}, {@code db/table#P#part}) belongs to, lower-cased
     * (names outside ASCII letters, digits and _ are encoded there as {@code @XXXX}: they then match only
     * a statement naming them so, which leaves the replay as before).
     */
    static String tableOf(String dictionaryName) {
        String t = dictionaryName.substring(dictionaryName.indexOf('/') + 1);
        int part = t.toLowerCase(java.util.Locale.ROOT).indexOf("#p#");
        return (part < 0 ? t : t.substring(0, part)).toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * The digest of the target's InnoDB dictionary entries of the tables {@code names} may name, or null
     * when it cannot be read (no PROCESS privilege, no such view).
     */
    public static String digest(Connection c, java.util.Set<String> names) {
        SQLException last = null;
        for (String[] queries : DICTIONARY) {
            try (Statement s = c.createStatement()) {
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                java.util.Set<String> ids = new java.util.HashSet<>();
                try (ResultSet rs = s.executeQuery(queries[0])) {
                    while (rs.next()) {
                        String name = rs.getString(1);
                        if (name != null && names.contains(tableOf(name))) {
                            ids.add(rs.getString(2));
                            row(md, name, rs.getString(2), rs.getString(3));
                        }
                    }
                }
                md.update((byte) 0x1d);
                try (ResultSet rs = s.executeQuery(queries[1])) {
                    while (rs.next()) {
                        if (ids.contains(rs.getString(1))) {
                            row(md, rs.getString(1), rs.getString(2));
                        }
                    }
                }
                return HexFormat.of().formatHex(md.digest());
            } catch (SQLException e) {
                last = e;
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
        log.debug("cannot read the target's InnoDB dictionary: {}", last == null ? "" : last.getMessage());
        return null;
    }

    private static void row(MessageDigest md, String... values) {
        for (String v : values) {
            md.update((v == null ? "\u0000" : v).getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0x1f);
        }
        md.update((byte) 0x1e);
    }

    /**
     * Records the dictionary before the pending unit at {@code at} runs, in the caller's transaction,
     * unless a record for that very unit is there (its replay: the one from before the DDL stays).
     *
     * @return false when the dictionary cannot be read (nothing recorded)
     */
    public boolean record(Connection c, BinlogCoordinates at, java.util.Set<String> names) throws SQLException {
        if (recorded(c, at) != null) {
            return true;
        }
        String digest = digest(c, names);
        if (digest == null) {
            return false;
        }
        try (PreparedStatement ps = c.prepareStatement("REPLACE INTO " + qualified
            + " (stream, binlog_file, binlog_offset, dictionary, names) VALUES (?, ?, ?, ?, ?)")) {
            ps.setString(1, stream);
            ps.setString(2, at.file());
            ps.setLong(3, at.offset());
            ps.setString(4, digest);
            ps.setString(5, String.join(" ", names));
            ps.executeUpdate();
        }
        return true;
    }

    /** What was recorded before a pending DDL: the digest, over the tables of these names. */
    record Recorded(String dictionary, java.util.Set<String> names) {
    }

    /** The record for the pending unit at {@code at}, or null. */
    Recorded recorded(Connection c, BinlogCoordinates at) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT dictionary, names FROM " + qualified
            + " WHERE stream = ? AND binlog_file = ? AND binlog_offset = ?")) {
            ps.setString(1, stream);
            ps.setString(2, at.file());
            ps.setLong(3, at.offset());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Recorded(rs.getString(1),
                    new java.util.TreeSet<>(java.util.Arrays.asList(rs.getString(2).split(" ")))) : null;
            }
        }
    }

    /**
     * True when the pending unit at {@code at} is proven to have run before a crash: a dictionary
     * was recorded before it, and the target's differs now.
     */
    public boolean ran(Connection c, BinlogCoordinates at) throws SQLException {
        Recorded before = recorded(c, at);
        if (before == null) {
            return false;
        }
        String now = digest(c, before.names());
        return now != null && !now.equals(before.dictionary());
    }
}
