-- The target's user for binlog-applier: everything on the replicated schema and on its state
-- schema (binlog_applier, created by the applier on its first start). SESSION_VARIABLES_ADMIN lets
-- it recreate the source session of statement events (some session variables, such as
-- collation_database, are restricted in MySQL 8). A source statement that needs more (CREATE
-- DATABASE of another schema, a DEFINER) stops the applier with exit code 25 (a privilege is missing).
CREATE USER 'applier'@'%' IDENTIFIED BY 'applier-demo-password';
GRANT ALL PRIVILEGES ON demo.* TO 'applier'@'%';
GRANT ALL PRIVILEGES ON binlog_applier.* TO 'applier'@'%';
GRANT SESSION_VARIABLES_ADMIN ON *.* TO 'applier'@'%';
-- durability.mode relaxed (the default): innodb_flush_log_at_trx_commit=2 and sync_binlog=0 while the
-- applier runs, the originals put back at its stop. Without this grant: one warning, target settings as they are.
GRANT SYSTEM_VARIABLES_ADMIN ON *.* TO 'applier'@'%';
