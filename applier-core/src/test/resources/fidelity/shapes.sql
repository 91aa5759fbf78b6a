-- Table shapes: generated columns, invisible columns, no primary key (duplicates, FLOAT), composite
-- keys, string keys under case-insensitive collations, unique secondary keys, partitions, unusual
-- identifiers, MyISAM and Aria.
CREATE DATABASE @DB@;
USE @DB@;
CREATE TABLE gen (id INT PRIMARY KEY, a INT, b INT, v INT AS (a + b) VIRTUAL, s INT AS (a * b) STORED,
  vs VARCHAR(20) AS (CONCAT('x', a)) VIRTUAL, KEY (v));
INSERT INTO gen (id, a, b) VALUES (1, 1, 2), (2, 3, 4), (3, NULL, 1);
UPDATE gen SET a = 10 WHERE id = 1;
DELETE FROM gen WHERE id = 2;
CREATE TABLE invis (id INT PRIMARY KEY, hidden INT INVISIBLE DEFAULT 7, v VARCHAR(10));
INSERT INTO invis (id, v) VALUES (1, 'a');
INSERT INTO invis (id, hidden, v) VALUES (2, 99, 'b');
UPDATE invis SET hidden = 100 WHERE id = 1;
CREATE TABLE nopk (a INT, b VARCHAR(10), f FLOAT, d DOUBLE);
INSERT INTO nopk VALUES (1, 'x', 0.1, 0.1), (1, 'x', 0.1, 0.1), (1, 'x', 0.1, 0.1), (2, NULL, NULL, NULL),
  (3, 'X', 1.5, 2.5), (3, 'x', 1.5, 2.5), (4, 'y ', -0.0, 1e300);
DELETE FROM nopk WHERE a = 1 LIMIT 1;
UPDATE nopk SET b = 'z' WHERE a = 3 AND b = 'x';
UPDATE nopk SET f = 2.5 WHERE a = 2;
DELETE FROM nopk WHERE b = 'y ';
-- keyless, a cell of every kind of type, equal rows: its net effect matches values on the target by
-- a row-constructor IN and by <=>, which must find exactly what applying the rows one by one finds
CREATE TABLE nopk_types (i INT, u BIGINT UNSIGNED, dc DECIMAL(12,4), dt DATETIME(6), tm TIME(3),
  ts TIMESTAMP(3) NULL, da DATE, yr YEAR, e ENUM('a','b','c'), st SET('x','y','z'), bt BIT(5),
  l1 VARCHAR(10) CHARACTER SET latin1, bl BLOB, js JSON, KEY (i));
INSERT INTO nopk_types VALUES
  (1, 18446744073709551615, 12345678.1234, '2024-02-29 13:00:00.000100', '-838:59:59.000', '2024-01-01 00:00:01.5',
   '2024-02-29', 2024, 'b', 'x,z', b'10101', x'636166e9', x'00ff00', '{"a": [1, 2.5, "x"]}'),
  (1, 18446744073709551615, 12345678.1234, '2024-02-29 13:00:00.000100', '-838:59:59.000', '2024-01-01 00:00:01.5',
   '2024-02-29', 2024, 'b', 'x,z', b'10101', x'636166e9', x'00ff00', '{"a": [1, 2.5, "x"]}'),
  (2, 0, -0.0001, '1000-01-01 00:00:00', '00:00:00', NULL, '0000-00-00', 0, 'a', '', b'0', 'CAFE', '', 'null'),
  (2, 0, -0.0001, '1000-01-01 00:00:00', '00:00:00', NULL, '0000-00-00', 0, 'a', '', b'0', 'cafe', '', 'null'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
DELETE FROM nopk_types WHERE i = 1 LIMIT 1;
UPDATE nopk_types SET dc = dc + 1 WHERE i = 2 AND l1 = BINARY 'cafe';
UPDATE nopk_types SET yr = 1999 WHERE i = 3;
INSERT INTO nopk_types SELECT * FROM nopk_types WHERE i = 2;
DELETE FROM nopk_types WHERE i = 2 AND l1 = BINARY 'CAFE' LIMIT 1;
UPDATE nopk_types SET e = 'c', st = 'y' WHERE i = 1;
-- a BIT primary key: rows are found by it
CREATE TABLE bitkey (b BIT(10) PRIMARY KEY, v INT);
INSERT INTO bitkey VALUES (b'0', 1), (b'1010101010', 2), (b'1111111111', 3);
UPDATE bitkey SET v = 20 WHERE b = b'1010101010';
UPDATE bitkey SET b = b'11' WHERE b = b'0';
DELETE FROM bitkey WHERE b = b'1111111111';
CREATE TABLE nopk_ci (k VARCHAR(10) COLLATE utf8mb4_general_ci, n INT);
INSERT INTO nopk_ci VALUES ('a', 1), ('A', 1), ('a ', 1);
DELETE FROM nopk_ci WHERE k = BINARY 'A';
UPDATE nopk_ci SET n = 2 WHERE k = BINARY 'a ';
CREATE TABLE composite (a INT, b VARCHAR(10), c DATE, v INT, PRIMARY KEY (b, a, c));
INSERT INTO composite VALUES (1, 'x', '2020-01-01', 1), (1, 'y', '2020-01-01', 2), (2, 'x', '2020-01-01', 3);
UPDATE composite SET v = 10, a = 5 WHERE b = 'x' AND a = 1;
DELETE FROM composite WHERE b = 'y';
CREATE TABLE ci_key (k VARCHAR(20) COLLATE utf8mb4_general_ci PRIMARY KEY, v INT);
INSERT INTO ci_key VALUES ('Alpha', 1), ('beta', 2), ('Straße', 3), ('é', 4);
UPDATE ci_key SET v = 10 WHERE k = 'ALPHA';
UPDATE ci_key SET k = 'BETA' WHERE k = 'beta';
DELETE FROM ci_key WHERE k = 'E';
CREATE TABLE uniq (id INT PRIMARY KEY, email VARCHAR(50) NOT NULL, code INT NULL, UNIQUE KEY u_email (email), UNIQUE KEY u_code (code));
INSERT INTO uniq VALUES (1, 'a@x', 1), (2, 'b@x', 2), (3, 'c@x', NULL), (4, 'd@x', NULL);
UPDATE uniq SET email = 'tmp@x' WHERE id = 1;
UPDATE uniq SET email = 'a@x' WHERE id = 2;
UPDATE uniq SET email = 'b@x' WHERE id = 1;
CREATE TABLE ukey_only (email VARCHAR(50) NOT NULL, v INT, UNIQUE KEY (email));
INSERT INTO ukey_only VALUES ('a', 1), ('b', 2);
UPDATE ukey_only SET v = 3 WHERE email = 'a';
DELETE FROM ukey_only WHERE email = 'b';
CREATE TABLE parts (id INT, region INT, v VARCHAR(10), PRIMARY KEY (id, region))
  PARTITION BY LIST (region) (PARTITION p1 VALUES IN (1), PARTITION p2 VALUES IN (2, 3));
INSERT INTO parts VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 3, 'c');
UPDATE parts SET region = 2 WHERE id = 1;
CREATE TABLE `we``ird table` (`col with space` INT PRIMARY KEY, `select` VARCHAR(10), `ünïcödé` INT, `a"b` INT);
INSERT INTO `we``ird table` VALUES (1, 'from', 2, 3), (2, 'where', 4, 5);
UPDATE `we``ird table` SET `select` = 'group' WHERE `col with space` = 1;
CREATE TABLE myisam_t (id INT PRIMARY KEY, v VARCHAR(10)) ENGINE = MyISAM;
INSERT INTO myisam_t VALUES (1, 'a'), (2, 'b');
UPDATE myisam_t SET v = 'c' WHERE id = 1;
DELETE FROM myisam_t WHERE id = 2;
CREATE TABLE aria_t (id INT PRIMARY KEY, v VARCHAR(10)) ENGINE = Aria;
INSERT INTO aria_t VALUES (1, 'a'), (2, 'b');
UPDATE aria_t SET v = 'c' WHERE id = 2;
CREATE TABLE myisam_nopk (a INT, b INT) ENGINE = MyISAM;
INSERT INTO myisam_nopk VALUES (1, 1), (1, 1), (2, 2);
DELETE FROM myisam_nopk WHERE a = 1 LIMIT 1;
