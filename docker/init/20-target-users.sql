-- The target's user for binlog-applier: everything on the replicated schema and on its state
-- schema (binlog_applier, created by the applier on its first start). SESSION_VARIABLES_ADMIN lets
-- it recreate the source session of statement events (some session variables, such as
-- collation_database, are restricted in MySQL 8). A source statement that needs more (CREATE
-- DATABASE of another schema, a DEFINER) stops the applier with exit code 25 (a privilege is missing).
CREATE USER 'applier'@'%' IDENTIFIED BY 'applier-demo-password';
GRANT ALL PRIVILEGES ON demo.* TO 'applier'@'%';
GRANT ALL PRIVILEGES ON binlog_applier.* TO 'applier'@'%';
GRANT SESSION_VARIABLES_ADMIN ON *.* TO 'applier'@'%';
