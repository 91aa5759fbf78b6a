-- A 16 MB LONGBLOB row, one statement whose first row is 12 MB and whose others are small, and one
-- transaction of 200,000 rows.
CREATE DATABASE @DB@;
USE @DB@;
CREATE TABLE blobs (id INT PRIMARY KEY, b LONGBLOB, t LONGTEXT);
INSERT INTO blobs VALUES (1, REPEAT(UNHEX('00FF7F80'), 4 * 1024 * 1024), 'small');
INSERT INTO blobs VALUES (2, 'small', REPEAT('x', 16 * 1024 * 1024 - 8));
UPDATE blobs SET t = 'changed' WHERE id = 1;
INSERT INTO blobs SELECT 10 + seq, IF(seq = 1, REPEAT('y', 12 * 1024 * 1024), 'small'), 'x' FROM seq_1_to_3;
CREATE TABLE many (id INT PRIMARY KEY, v INT, s VARCHAR(20));
INSERT INTO many SELECT seq, seq * 2, CONCAT('row ', seq) FROM seq_1_to_200000;
BEGIN;
UPDATE many SET v = v + 1 WHERE id % 3 = 0;
DELETE FROM many WHERE id % 7 = 0;
COMMIT;
