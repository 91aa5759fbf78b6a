package io.binlogapplier.verify;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ChunkSqlTest {
    private static final TableShape ORDERS = new TableShape("shop", "orders", "shop_copy",
        List.of(new TableShape.Column("id", false), new TableShape.Column("note", true)), List.of("id"));
    private static final TableShape LINES = new TableShape("shop", "lines", "shop", List.of(
        new TableShape.Column("order_id", false), new TableShape.Column("line", false)), List.of("order_id", "line"));

    @Test
    void aRowsTextHasEachColumnsLengthAndNullFlagsAndConvertsTextToOneCharacterSet() {
        assertThat(ChunkSql.rowText(ORDERS)).isEqualTo("CONCAT_WS('#', CHAR_LENGTH(`id`), `id`,"
            + " CHAR_LENGTH(CONVERT(`note` USING utf8mb4)), CONVERT(`note` USING utf8mb4), CONCAT(ISNULL(`id`),"
            + " ISNULL(`note`)))");
    }

    @Test
    void aChunkChecksumReadsItsKeyRangeInTheSchemaItIsGiven() {
        ChunkSql.Query q = ChunkSql.checksum("shop_copy", ORDERS, new ChunkRange(List.of(2000), List.of(4000)));

        assertThat(q.sql()).startsWith("SELECT COUNT(*), COALESCE(BIT_XOR(CAST(CONV(LEFT(MD5(")
            .endsWith(" FROM `shop_copy`.`orders` WHERE `id` > ? AND `id` <= ?");
        assertThat(q.parameters()).containsExactly(2000, 4000);
    }

    @Test
    void aCompositeKeyRangeIsSpeltOutColumnByColumn() {
        ChunkSql.Query q = ChunkSql.rowHashes("shop", LINES, new ChunkRange(List.of(7, 2), List.of(9, 1)));

        assertThat(q.sql()).endsWith(" FROM `shop`.`lines` WHERE ((`order_id` > ?) OR (`order_id` = ? AND `line` > ?))"
            + " AND ((`order_id` < ?) OR (`order_id` = ? AND `line` <= ?))"
            + " ORDER BY `order_id`, `line`");
        assertThat(q.parameters()).containsExactly(7, 7, 2, 9, 9, 1);
    }

    @Test
    void theFirstAndLastChunksAreOpenAndAKeylessTableIsOneChunk() {
        assertThat(ChunkSql.checksum("shop", ORDERS, new ChunkRange(null, List.of(10))).sql()).endsWith(" WHERE (`id` <= ? OR `id` IS NULL)");
        assertThat(ChunkSql.checksum("shop", ORDERS, new ChunkRange(List.of(10), null)).sql()).endsWith(" WHERE `id` > ?");
        assertThat(ChunkSql.checksum("shop", ORDERS, ChunkRange.WHOLE).sql()).endsWith(" FROM `shop`.`orders`");
        assertThat(ChunkSql.nextBoundary("shop", LINES, null, 2000).sql())
            .isEqualTo("SELECT `order_id`, `line` FROM `shop`.`lines` ORDER BY `order_id`, `line` LIMIT 1 OFFSET 1999");
    }

    @Test
    void rangesAreDescribedWithTheirKeyAndQuotedValues() {
        assertThat(new ChunkRange(null, List.of(100)).describe(List.of("id"))).isEqualTo("id in (-inf, 100]");
        assertThat(new ChunkRange(List.of(1, "it's"), null).describe(List.of("a", "b")))
            .isEqualTo("(a,b) in ((1,'it''s'), +inf)");
        assertThat(new ChunkRange(Arrays.asList(new byte[] {1, (byte) 0xab}), null).describe(List.of("h")))
            .isEqualTo("h in (0x01ab, +inf)");
        assertThat(ChunkRange.WHOLE.describe(List.of())).startsWith("whole table");
    }

    @Test
    void identifiersWithBackticksAreQuoted() {
        assertThat(ChunkSql.quote("we`ird")).isEqualTo("`we``ird`");
    }
}
