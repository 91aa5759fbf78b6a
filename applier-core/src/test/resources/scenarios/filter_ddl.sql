-- DDL under a filter (FilterIT): include ["ddl_S.*", "ddlnew_S.*"], exclude ["ddl_S.tmp_*"],
-- rename { ddl_S: ddl_S_replica, ddlnew_S: ddlnew_S_replica }. S is replaced per run.
-- Before this script: ddl_S.orders on both sides (the target's in ddl_S_replica), ddl_S.tmp_old
-- on the source only.

-- renamed schema: qualified, unqualified (default database), ALTER, RENAME, a view
CREATE TABLE ddl_S.items (id INT PRIMARY KEY, name VARCHAR(20));
USE ddl_S;
CREATE TABLE notes (id INT PRIMARY KEY, body TEXT);
INSERT INTO ddl_S.items VALUES (1, 'one'), (2, 'two'), (3, 'three');
INSERT INTO notes VALUES (1, 'first note');
ALTER TABLE ddl_S.orders ADD COLUMN c INT NOT NULL DEFAULT 7;
INSERT INTO orders (id, v, c) VALUES (10, 'ten', 70);
UPDATE orders SET c = c + id;
RENAME TABLE ddl_S.notes TO ddl_S.notes2;
INSERT INTO notes2 VALUES (2, 'second note');
CREATE VIEW ddl_S.v AS SELECT i.id, i.name FROM ddl_S.items AS i WHERE i.id > 1;

-- excluded tables: none of this reaches the target (which has neither table)
CREATE TABLE ddl_S.tmp_work (id INT PRIMARY KEY);
INSERT INTO ddl_S.tmp_work VALUES (1), (2);
ALTER TABLE tmp_work ADD COLUMN x INT;
UPDATE tmp_work SET x = 5;
TRUNCATE TABLE ddl_S.tmp_work;
DROP TABLE ddl_S.tmp_work;
DROP TABLE ddl_S.tmp_old;

-- a schema the filter leaves out
CREATE DATABASE other_S;
CREATE TABLE other_S.t (id INT PRIMARY KEY);
INSERT INTO other_S.t VALUES (1);
USE other_S;
CREATE TABLE t2 (id INT PRIMARY KEY);
DROP DATABASE other_S;

-- a new renamed schema, created by the stream
CREATE DATABASE ddlnew_S;
CREATE TABLE ddlnew_S.t (id INT PRIMARY KEY, v VARCHAR(10));
INSERT INTO ddlnew_S.t VALUES (1, 'x'), (2, 'y');
USE ddlnew_S;
UPDATE t SET v = 'z' WHERE id = 2;
