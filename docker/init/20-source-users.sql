-- The source's replication user for binlog-applier. No IDENTIFIED WITH: MySQL 8.4's default
-- authentication plugin, caching_sha2_password (mysql_native_password is disabled by default in
-- 8.4); binlog-applier retrieves the server's RSA key when the connection is not TLS.
CREATE USER 'repl'@'%' IDENTIFIED BY 'repl-demo-password';
GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'repl'@'%';
