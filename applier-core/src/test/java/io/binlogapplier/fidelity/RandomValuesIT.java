package io.binlogapplier.fidelity;

import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Randomised round trips: for numeric, temporal and string types, 10,000 rows of generated values
 * (seeded: {@code -Dfidelity.seed=N} reproduces a run) written on the source, then a fifth of them
 * updated and a tenth deleted; the target must end identical.
 */
class RandomValuesIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    static final int ROWS = 10_000;
    static final long SEED = Long.getLong("fidelity.seed", 20261130L);

    @ParameterizedTest(name = "{0} values, apply.method {1}")
    // sql_in_order: net effect off, so every row change is one statement of its own, written as text with
    // literal values (SqlLiteral) and sent several per round trip; under sql, most go as multi-row
    // prepared statements
    @CsvSource({"numeric, sql", "numeric, binlog", "temporal, sql", "temporal, binlog", "string, sql",
        "string, binlog", "numeric, sql_in_order", "temporal, sql_in_order", "string, sql_in_order"})
    void randomValuesRoundTrip(String family, String method) throws SQLException {
        String db = "rnd_" + family + "_" + method;
        String start = TestApplier.currentPosition(SERVERS.source());
        Random random = new Random(SEED ^ family.hashCode());
        try (Connection c = SERVERS.source().connect(); Statement s = c.createStatement()) {
            s.execute("SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION', time_zone = '+00:00'");
            s.execute("CREATE DATABASE " + db);
            s.execute("USE " + db);
            Family f = switch (family) {
                case "numeric" -> new Numeric();
                case "temporal" -> new Temporal();
                default -> new Strings();
            };
            s.execute(f.ddl());
            c.setAutoCommit(false);
            try (PreparedStatement ins = c.prepareStatement(f.insert())) {
                for (int id = 1; id <= ROWS; id++) {
                    ins.setInt(1, id);
                    f.bind(ins, random, 2);
                    ins.addBatch();
                    if (id % 500 == 0) {
                        ins.executeBatch();
                        c.commit();
                    }
                }
            }
            try (PreparedStatement upd = c.prepareStatement(f.update())) {
                for (int id = 1; id <= ROWS; id += 5) {
                    f.bind(upd, random, 1);
                    upd.setInt(f.columns() + 1, id);
                    upd.addBatch();
                }
                upd.executeBatch();
            }
            s.execute("DELETE FROM t WHERE id % 10 = 3");
            c.commit();
        }
        String apply = method.equals("sql_in_order") ? "  method: sql\n  net_effect: false\n" : "  method: " + method + "\n";
        ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "optimistic", 2,
            apply), "random", db);

        TestApplier.runUntilCurrent(cfg);

        System.out.println("random " + family + " values, seed " + SEED + ", method " + method + ": "
            + TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db));
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".t")).isEqualTo(ROWS - ROWS / 10);
    }

    /** A table of one family and how to fill it with random values. */
    interface Family {
        String ddl();

        /** Column names after id, in bind order. */
        String[] names();

        /** SQL placeholder per column (may wrap the ?). */
        String[] placeholders();

        /** Binds one row of random values starting at parameter {@code first}. */
        void bind(PreparedStatement ps, Random r, int first) throws SQLException;

        default int columns() {
            return names().length;
        }

        default String insert() {
            return "INSERT INTO t (id, " + String.join(", ", names()) + ") VALUES (?, "
                + String.join(", ", placeholders()) + ")";
        }

        default String update() {
            StringBuilder sb = new StringBuilder("UPDATE t SET ");
            for (int i = 0; i < names().length; i++) {
                sb.append(i == 0 ? "" : ", ").append(names()[i]).append(" = ").append(placeholders()[i]);
            }
            return sb.append(" WHERE id = ?").toString();
        }
    }

    static final class Numeric implements Family {
        public String ddl() {
            return "CREATE TABLE t (id INT PRIMARY KEY, ti TINYINT, tiu TINYINT UNSIGNED, si SMALLINT,"
                + " siu SMALLINT UNSIGNED, mi MEDIUMINT, miu MEDIUMINT UNSIGNED, i INT, iu INT UNSIGNED, bi BIGINT,"
                + " biu BIGINT UNSIGNED, d DECIMAL(65,30), du DECIMAL(12,4) UNSIGNED, f FLOAT, dd DOUBLE, b BIT(64),"
                + " y YEAR)";
        }

        public String[] names() {
            return new String[] {"ti", "tiu", "si", "siu", "mi", "miu", "i", "iu", "bi", "biu", "d", "du", "f", "dd",
                "b", "y"};
        }

        public String[] placeholders() {
            return new String[] {"?", "?", "?", "?", "?", "?", "?", "?", "?", "CAST(? AS UNSIGNED)",
                "CAST(? AS DECIMAL(65,30))", "?", "?", "?", "CAST(? AS UNSIGNED)", "?"};
        }

        public void bind(PreparedStatement ps, Random r, int first) throws SQLException {
            int p = first;
            ps.setLong(p++, r.nextInt(256) - 128);
            ps.setLong(p++, r.nextInt(256));
            ps.setLong(p++, r.nextInt(65536) - 32768);
            ps.setLong(p++, r.nextInt(65536));
            ps.setLong(p++, r.nextInt(1 << 24) - (1 << 23));
            ps.setLong(p++, r.nextInt(1 << 24));
            ps.setLong(p++, r.nextInt());
            ps.setLong(p++, r.nextInt() & 0xFFFFFFFFL);
            ps.setLong(p++, r.nextLong());
            ps.setString(p++, Long.toUnsignedString(r.nextLong()));
            ps.setString(p++, decimal(r, 35, 30));
            ps.setString(p++, decimal(r, 8, 4).replace("-", ""));
            float f;
            do {
                f = Float.intBitsToFloat(r.nextInt());
            } while (Float.isNaN(f) || Float.isInfinite(f));
            ps.setFloat(p++, r.nextInt(20) == 0 ? -0.0f : f);
            double d;
            do {
                d = Double.longBitsToDouble(r.nextLong());
            } while (Double.isNaN(d) || Double.isInfinite(d));
            ps.setDouble(p++, d);
            ps.setString(p++, Long.toUnsignedString(r.nextLong()));
            int y = r.nextInt(256);
            ps.setInt(p, y == 0 ? 0 : 1900 + y);
        }

        private static String decimal(Random r, int intDigits, int fracDigits) {
            BigInteger i = new BigInteger(intDigits * 3, r).mod(BigInteger.TEN.pow(r.nextInt(intDigits) + 1));
            BigInteger f = new BigInteger(fracDigits * 4, r).mod(BigInteger.TEN.pow(fracDigits));
            BigDecimal v = new BigDecimal(i).add(new BigDecimal(f, fracDigits));
            return (r.nextBoolean() ? "-" : "") + v.toPlainString();
        }
    }

    static final class Temporal implements Family {
        public String ddl() {
            return "CREATE TABLE t (id INT PRIMARY KEY, d DATE, dt0 DATETIME, dt3 DATETIME(3), dt6 DATETIME(6),"
                + " ts0 TIMESTAMP NULL, ts6 TIMESTAMP(6) NULL, t0 TIME, t3 TIME(3), t6 TIME(6))";
        }

        public String[] names() {
            return new String[] {"d", "dt0", "dt3", "dt6", "ts0", "ts6", "t0", "t3", "t6"};
        }

        public String[] placeholders() {
            return new String[] {"?", "?", "?", "?", "?", "?", "?", "?", "?"};
        }

        public void bind(PreparedStatement ps, Random r, int first) throws SQLException {
            int p = first;
            ps.setString(p++, date(r));
            ps.setString(p++, date(r) + " " + clock(r, 0));
            ps.setString(p++, date(r) + " " + clock(r, 3));
            ps.setString(p++, date(r) + " " + clock(r, 6));
            ps.setString(p++, timestamp(r, 0));
            ps.setString(p++, timestamp(r, 6));
            ps.setString(p++, time(r, 0));
            ps.setString(p++, time(r, 3));
            ps.setString(p, time(r, 6));
        }

        private static String date(Random r) {
            int k = r.nextInt(50);
            if (k == 0) {
                return "0000-00-00";
            }
            int y = 1000 + r.nextInt(9000);
            int m = k == 1 ? 0 : 1 + r.nextInt(12);
            int d = k == 2 ? 0 : 1 + r.nextInt(28);
            return String.format("%04d-%02d-%02d", y, m, d);
        }

        private static String clock(Random r, int fsp) {
            return String.format("%02d:%02d:%02d", r.nextInt(24), r.nextInt(60), r.nextInt(60)) + fraction(r, fsp);
        }

        private static String fraction(Random r, int fsp) {
            if (fsp == 0) {
                return "";
            }
            String f = String.format("%06d", r.nextInt(1_000_000));
            return "." + f.substring(0, fsp);
        }

        private static String timestamp(Random r, int fsp) {
            if (r.nextInt(100) == 0) {
                return "0000-00-00 00:00:00";
            }
            long seconds = 1 + (long) (r.nextDouble() * 2147483646L);
            java.time.LocalDateTime t = java.time.LocalDateTime.ofEpochSecond(seconds, 0, java.time.ZoneOffset.UTC);
            return t.toLocalDate() + " " + t.toLocalTime().withNano(0) + (t.getSecond() == 0 ? ":00" : "")
                + fraction(r, fsp);
        }

        private static String time(Random r, int fsp) {
            int h = r.nextInt(839);
            String v = String.format("%d:%02d:%02d", h, r.nextInt(60), r.nextInt(60));
            if (h == 838) {
                v = "838:59:59";
                fsp = 0;
            }
            return (r.nextBoolean() ? "-" : "") + v + fraction(r, fsp);
        }
    }

    static final class Strings implements Family {
        private static final Charset GBK = Charset.forName("GBK");

        public String ddl() {
            return "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(100) CHARACTER SET utf8mb4,"
                + " c CHAR(20) CHARACTER SET utf8mb4, l VARCHAR(100) CHARACTER SET latin1,"
                + " g VARCHAR(100) CHARACTER SET gbk, vb VARBINARY(100), bl BLOB, tx TEXT CHARACTER SET utf8mb4,"
                + " e ENUM('a','b','c','d','é','😀',''), s SET('p','q','r','s','t','u','v','w'))";
        }

        public String[] names() {
            return new String[] {"v", "c", "l", "g", "vb", "bl", "tx", "e", "s"};
        }

        public String[] placeholders() {
            return new String[] {"?", "?", "CAST(? AS BINARY)", "CAST(? AS BINARY)", "?", "?", "?", "?", "?"};
        }

        public void bind(PreparedStatement ps, Random r, int first) throws SQLException {
            int p = first;
            ps.setString(p++, unicode(r, r.nextInt(100)));
            ps.setString(p++, unicode(r, r.nextInt(20)).stripTrailing() + (r.nextInt(5) == 0 ? " " : ""));
            byte[] latin = new byte[r.nextInt(100)];
            r.nextBytes(latin);
            ps.setBytes(p++, latin);
            ps.setBytes(p++, gbk(r, r.nextInt(50)));
            byte[] bin = new byte[r.nextInt(100)];
            r.nextBytes(bin);
            ps.setBytes(p++, bin);
            byte[] blob = new byte[r.nextInt(3000)];
            r.nextBytes(blob);
            ps.setBytes(p++, blob);
            ps.setString(p++, r.nextInt(10) == 0 ? null : unicode(r, r.nextInt(500)));
            ps.setInt(p++, 1 + r.nextInt(7));
            ps.setLong(p, r.nextInt(256));
        }

        /** Random text: ASCII, Latin, CJK, 4-byte characters, quotes, backslashes, control characters. */
        private static String unicode(Random r, int length) {
            StringBuilder sb = new StringBuilder();
            while (sb.codePointCount(0, sb.length()) < length) {
                int kind = r.nextInt(10);
                int cp = switch (kind) {
                    case 0 -> 0x1F600 + r.nextInt(80);
                    case 1 -> 0x4E00 + r.nextInt(0x5000);
                    case 2 -> 0xC0 + r.nextInt(0x100);
                    case 3 -> "'\"\\%_`\t\n\0".charAt(r.nextInt(9));
                    case 4 -> 0x10000 + r.nextInt(0x10000);
                    default -> 0x20 + r.nextInt(0x5F);
                };
                if (Character.isSurrogate((char) cp) && cp < 0x10000) {
                    continue;
                }
                sb.appendCodePoint(cp);
            }
            return sb.toString();
        }

        private static byte[] gbk(Random r, int length) {
            CharsetEncoder enc = GBK.newEncoder();
            StringBuilder sb = new StringBuilder();
            while (sb.length() < length) {
                char ch = r.nextBoolean() ? (char) (0x4E00 + r.nextInt(0x5000)) : (char) (0x20 + r.nextInt(0x5F));
                if (enc.canEncode(ch)) {
                    sb.append(ch);
                }
            }
            ByteBuffer b = GBK.encode(sb.toString());
            byte[] out = new byte[b.remaining()];
            b.get(out);
            return out;
        }
    }
}
