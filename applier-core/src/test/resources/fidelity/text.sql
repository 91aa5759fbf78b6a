-- CHAR/VARCHAR/TEXT in utf8mb4 (4-byte characters), latin1, gbk; trailing spaces; quotes and
-- backslashes; BINARY/VARBINARY/BLOB with NUL and 0xFF; ENUM (including '') and SET; JSON;
-- GEOMETRY, POINT, POLYGON.
CREATE DATABASE @DB@ CHARACTER SET utf8mb4;
USE @DB@;
SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION';
CREATE TABLE strings (
  id INT PRIMARY KEY,
  c CHAR(10) CHARACTER SET utf8mb4, v VARCHAR(100) CHARACTER SET utf8mb4, t TEXT CHARACTER SET utf8mb4,
  l1 VARCHAR(50) CHARACTER SET latin1, lc CHAR(5) CHARACTER SET latin1,
  g VARCHAR(50) CHARACTER SET gbk, mt MEDIUMTEXT, lt LONGTEXT
);
INSERT INTO strings VALUES
  (1, 'a', 'ascii', 'plain', 'abc', 'x', 'abc', 'm', 'l'),
  (2, '😀', 'emoji 😀🎉 𝄞 and 中文', CONCAT('four-byte ', '😀'), 'café naïve ©®', 'é', '中文字符', '中', '😀'),
  (3, 'trail  ', 'trailing spaces   ', 'text trailing   ', 'latin trail  ', 'ab ', 'gbk trail ', ' lead', 'x  '),
  (4, '''q''', 'it''s "quoted" \\ back\\slash', 'tab\there\nnewline', 'o''neil \\', '\\', '引号''', '', ''),
  (5, '', '', '', '', '', '', '', ''),
  (6, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (7, 'ß', 'Straße ŁÓDŹ', REPEAT('long text ', 500), CONCAT('€', CHAR(128 USING latin1)), 'ÿ', '繁體', REPEAT('m', 70000), REPEAT('😀', 20000));
UPDATE strings SET v = CONCAT(v, ' updated'), g = '更新' WHERE id IN (1, 2);
CREATE TABLE bytes (id INT PRIMARY KEY, b BINARY(8), vb VARBINARY(64), bl BLOB, tb TINYBLOB, lb LONGBLOB);
INSERT INTO bytes VALUES
  (1, 0x00, 0x00, 0x00, 0x00, 0x00),
  (2, 0xFFFFFFFFFFFFFFFF, 0xFF00FF00, 0x00FF00FF00, 0xFF, 0x0000000000),
  (3, 'abc', 'abc\0def', UNHEX(REPEAT('00FF', 1000)), 0x5C27, UNHEX(REPEAT('DEADBEEF', 100000))),
  (4, '', '', '', '', ''),
  (5, NULL, NULL, NULL, NULL, NULL),
  (6, 0x0102030400000000, 0x01020304000000, 0x27225C00, 0x00, 0x00);
UPDATE bytes SET vb = 0x7F80 WHERE id = 1;
-- BINARY(n) values ending in 0x00 (the binlog drops trailing pad bytes, the stored value keeps them)
-- as a primary key, a unique key, and in a table without a key, then found again by them.
CREATE TABLE bin_pk (k BINARY(4) PRIMARY KEY, u BINARY(3), n INT, UNIQUE KEY (u));
INSERT INTO bin_pk VALUES (0x01000000, 0x0100, 1), (0x02020000, 0x02, 2), (0x00000000, 0x00, 3), (0x03, 0x0300, 4);
UPDATE bin_pk SET n = n + 10 WHERE k = 0x01000000;
UPDATE bin_pk SET k = 0x05000000 WHERE k = 0x02020000;
DELETE FROM bin_pk WHERE k = 0x00000000;
UPDATE bin_pk SET u = 0x0400 WHERE u = 0x0300;
CREATE TABLE bin_nopk (b BINARY(4), n INT);
INSERT INTO bin_nopk VALUES (0x01000000, 1), (0x01000000, 1), (0x0100, 2), (NULL, 3);
UPDATE bin_nopk SET n = 5 WHERE n = 2;
DELETE FROM bin_nopk WHERE n = 1 LIMIT 1;
-- MariaDB's INET6, INET4 and UUID: binary strings in the binlog (trailing zero bytes dropped, a
-- time-based UUID in its stored order), as keys and values.
CREATE TABLE addrs (a INET6 PRIMARY KEY, b INET4, u UUID, n INT);
INSERT INTO addrs VALUES ('2001:db8::', '10.0.0.0', UUID(), 1), ('::', '0.0.0.0', '00000000-0000-0000-0000-000000000000', 2),
  ('::1', '10.0.0.1', 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee', 3), ('fe80::1:0', NULL, NULL, 4);
UPDATE addrs SET n = n + 10;
UPDATE addrs SET a = 'fe80::' WHERE n = 14;
CREATE TABLE addrs_u (u UUID PRIMARY KEY, n INT);
INSERT INTO addrs_u VALUES (UUID(), 1), ('12345678-1234-1234-1234-123456789000', 2);
UPDATE addrs_u SET n = n + 1;
CREATE TABLE enums (id INT PRIMARY KEY, e ENUM('', 'a', 'b,c', 'd''e', 'ü'), s SET('x', 'y', 'z;', 'w'),
  e2 ENUM('one', 'two') NOT NULL, big SET('a1','a2','a3','a4','a5','a6','a7','a8','a9','b1','b2','b3','b4','b5','b6',
  'b7','b8','b9','c1','c2','c3','c4','c5','c6','c7','c8','c9','d1','d2','d3','d4','d5','d6','d7','d8','d9','e1','e2',
  'e3','e4','e5','e6','e7','e8','e9','f1','f2','f3','f4','f5','f6','f7','f8','f9','g1','g2','g3','g4','g5','g6','g7',
  'g8','g9','h1'));
INSERT INTO enums VALUES (1, '', '', 'one', ''), (2, 'a', 'x,y', 'two', 'a1,h1'), (3, 'b,c', 'z;', 'one', 'g9,h1'),
  (4, 'd''e', 'x,y,z;,w', 'two', 'a1,a2,a3'), (5, 'ü', 'w', 'one', 'h1'), (6, NULL, NULL, 'one', NULL);
INSERT INTO enums (id, e, e2) VALUES (7, 'not a member', 'bogus');
UPDATE enums SET s = 'y' WHERE id = 1;
-- ENUM and SET in latin1 with members named like numbers: the index and the mask must arrive as
-- numbers, in a keyed table and one without a key; the DDL between makes the rows exist before the
-- unit that changes them.
CREATE TABLE enum_l1 (id INT PRIMARY KEY, e ENUM('0', '1', '2') CHARACTER SET latin1, s SET('1', '2', '4') CHARACTER SET latin1);
CREATE TABLE enum_l1_nopk (e ENUM('0', '1', '2') CHARACTER SET latin1, s SET('1', '2', '4') CHARACTER SET latin1, n INT);
INSERT INTO enum_l1 VALUES (1, '0', '1'), (2, '1', '2,4'), (3, '2', '');
INSERT INTO enum_l1_nopk VALUES ('0', '1', 1), ('1', '2,4', 2), ('2', '', 3);
CREATE TABLE enum_barrier (id INT);
UPDATE enum_l1 SET e = '2', s = '4' WHERE id = 1;
UPDATE enum_l1_nopk SET n = n + 10;
DELETE FROM enum_l1_nopk WHERE e = '1';
CREATE TABLE docs (id INT PRIMARY KEY, j JSON, jn JSON);
INSERT INTO docs VALUES (1, '{"a": 1, "b": [1, 2.5, "x", null, true], "c": {"d": "😀"}}', NULL),
  (2, '[]', '{}'), (3, '"just a string with \\"quotes\\""', '123.456e10'), (4, 'null', 'false');
UPDATE docs SET j = JSON_SET(j, '$.a', 2) WHERE id = 1;
CREATE TABLE shapes (id INT PRIMARY KEY, g GEOMETRY, p POINT NOT NULL, poly POLYGON, SPATIAL KEY (p));
INSERT INTO shapes VALUES
  (1, ST_GeomFromText('LINESTRING(0 0, 1 1, 2 3)'), ST_GeomFromText('POINT(1 2)'),
      ST_GeomFromText('POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 3 2, 3 3, 2 2))')),
  (2, ST_GeomFromText('POINT(-1.5 3.25)', 4326), ST_GeomFromText('POINT(0 0)'), NULL),
  (3, NULL, ST_GeomFromText('POINT(1e300 -1e-300)'), ST_GeomFromText('POLYGON((0 0, 1 0, 1 1, 0 0))'));
UPDATE shapes SET p = ST_GeomFromText('POINT(5 5)') WHERE id = 2;
DELETE FROM shapes WHERE id = 3;
-- ucs2, utf16, utf16le and utf32: two or four bytes a character, and CHAR(n) padded with spaces of that
-- width; as values, as a primary key, and in a table without a key, found again by them.
CREATE TABLE wide (u CHAR(6) CHARACTER SET ucs2 PRIMARY KEY, v VARCHAR(20) CHARACTER SET utf16,
  w VARCHAR(20) CHARACTER SET utf16le, x CHAR(5) CHARACTER SET utf32, t TEXT CHARACTER SET utf32, n INT);
INSERT INTO wide VALUES ('a', 'ascii', 'ascii', 'a', 'a', 1), ('é中', '😀 𝄞', 'é😀', '😀', REPEAT('😀', 300), 2),
  ('trail ', 'trail  ', 'trail ', 'x  ', 'y ', 3), ('', '', '', '', '', 4), ('n', NULL, NULL, NULL, NULL, 5);
UPDATE wide SET v = CONCAT(v, '更'), n = n + 10 WHERE u IN ('a', 'é中');
UPDATE wide SET u = 'ü' WHERE u = 'trail';
DELETE FROM wide WHERE u = '';
CREATE TABLE wide_nopk (x CHAR(4) CHARACTER SET utf32, v VARCHAR(10) CHARACTER SET ucs2, n INT);
INSERT INTO wide_nopk VALUES ('😀', 'é', 1), ('a ', 'b', 2), ('😀', 'é', 1), (NULL, NULL, 3);
CREATE TABLE wide_barrier (id INT);
UPDATE wide_nopk SET n = n + 10 WHERE v = 'b';
DELETE FROM wide_nopk WHERE x = '😀' LIMIT 1;
