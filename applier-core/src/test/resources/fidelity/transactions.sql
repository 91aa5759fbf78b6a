-- Multi-statement transactions, ROLLBACK, SAVEPOINT / ROLLBACK TO SAVEPOINT, temporary tables used to
-- fill real tables.
CREATE DATABASE @DB@;
USE @DB@;
CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20));
CREATE TABLE m (id INT PRIMARY KEY, v VARCHAR(20)) ENGINE = MyISAM;
BEGIN;
INSERT INTO t VALUES (1, 'one'), (2, 'two');
UPDATE t SET v = 'uno' WHERE id = 1;
INSERT INTO t VALUES (3, 'three');
COMMIT;
BEGIN;
INSERT INTO t VALUES (4, 'rolled back');
ROLLBACK;
BEGIN;
INSERT INTO t VALUES (5, 'kept');
SAVEPOINT sp1;
INSERT INTO t VALUES (6, 'undone');
UPDATE t SET v = 'undone too' WHERE id = 1;
ROLLBACK TO SAVEPOINT sp1;
INSERT INTO t VALUES (7, 'after savepoint');
RELEASE SAVEPOINT sp1;
COMMIT;
BEGIN;
INSERT INTO t VALUES (8, 'mixed');
INSERT INTO m VALUES (1, 'myisam stays');
ROLLBACK;
BEGIN;
INSERT INTO t VALUES (9, 'mixed 2');
SAVEPOINT a;
INSERT INTO m VALUES (2, 'non-trans later');
INSERT INTO t VALUES (10, 'undone 2');
ROLLBACK TO SAVEPOINT a;
COMMIT;
-- One statement that changes an InnoDB and a MyISAM table, in a transaction rolled back: the source logs
-- both tables' rows and ROLLBACK; only the MyISAM change remains.
BEGIN;
INSERT INTO t VALUES (11, 'rolled back 3');
UPDATE t, m SET t.v = 'multi undone', m.v = 'multi stays' WHERE t.id = 2 AND m.id = 1;
ROLLBACK;
-- The same in statement format: the source logs both statements and ROLLBACK; the InnoDB row must not stay.
SET SESSION binlog_format = 'STATEMENT';
BEGIN;
INSERT INTO t VALUES (12, 'rolled back 4');
INSERT INTO m VALUES (3, 'statement stays');
ROLLBACK;
SET SESSION binlog_format = 'ROW';
-- auto_increment_increment of one session must not reach the next statement: the ALTER numbers 1, 2, 3.
SET SESSION auto_increment_increment = 10;
CREATE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY, v INT);
SET SESSION binlog_format = 'STATEMENT';
INSERT INTO ai (v) VALUES (1), (2);
SET SESSION binlog_format = 'ROW';
SET SESSION auto_increment_increment = 1;
CREATE TABLE ai2 (v INT);
INSERT INTO ai2 VALUES (1), (2), (3);
ALTER TABLE ai2 ADD id INT AUTO_INCREMENT PRIMARY KEY;
CREATE TEMPORARY TABLE tmp (id INT PRIMARY KEY, v VARCHAR(20));
INSERT INTO tmp VALUES (100, 'from temp'), (101, 'from temp');
INSERT INTO t SELECT * FROM tmp;
UPDATE tmp SET v = 'changed in temp';
INSERT INTO t SELECT id + 100, v FROM tmp;
DROP TEMPORARY TABLE tmp;
