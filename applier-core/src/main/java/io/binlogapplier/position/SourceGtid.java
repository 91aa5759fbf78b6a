package io.binlogapplier.position;

import java.util.UUID;

/** The GTID of one source transaction: MariaDB's domain-server-sequence or MySQL's uuid:number. */
public sealed interface SourceGtid permits SourceGtid.Mariadb, SourceGtid.Mysql {

    /** MariaDB GTID {@code domain-server-seq}, e.g. {@code 0-1-100}. */
    record Mariadb(long domainId, long serverId, long sequence) implements SourceGtid {
        @Override
        public String toString() {
            return domainId + "-" + serverId + "-" + sequence;
        }
    }

    /** MySQL GTID {@code uuid:number}; {@code tag} is MySQL 8.4's tagged GTID, empty when untagged. */
    record Mysql(UUID sourceId, String tag, long transactionId) implements SourceGtid {
        @Override
        public String toString() {
            return sourceId + (tag.isEmpty() ? "" : ":" + tag) + ":" + transactionId;
        }
    }
}
