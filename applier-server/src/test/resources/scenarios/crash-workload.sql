-- 50,000 small source transactions with DDL in the middle, for the crash-safety test. crash.log is a
-- child of crash.acct (a foreign key), so that the SQL method holds and groups their rows by key.
CREATE DATABASE crash;
CREATE TABLE crash.acct (id INT PRIMARY KEY, balance BIGINT NOT NULL, note VARCHAR(64), KEY k_balance (balance));
CREATE TABLE crash.log (id BIGINT AUTO_INCREMENT PRIMARY KEY, acct INT NOT NULL, delta INT NOT NULL, at DATETIME(6),
  CONSTRAINT log_acct FOREIGN KEY (acct) REFERENCES crash.acct (id) ON DELETE CASCADE);
CREATE TABLE crash.nopk (a INT, b VARCHAR(10));
DELIMITER //
CREATE PROCEDURE crash.work(first INT, n INT)
BEGIN
  DECLARE i INT DEFAULT first;
  WHILE i < first + n DO
    START TRANSACTION;
    INSERT INTO crash.acct (id, balance, note) VALUES (i % 1000, i, CONCAT('n', i))
      ON DUPLICATE KEY UPDATE balance = balance + 1, note = CONCAT('u', i);
    INSERT INTO crash.log (acct, delta, at) VALUES (i % 1000, 1, NOW(6));
    IF i % 97 = 0 THEN DELETE FROM crash.log WHERE id = i DIV 2; END IF;
    IF i % 500 = 0 THEN INSERT INTO crash.nopk VALUES (i, 'x'); END IF;
    IF i % 700 = 0 THEN UPDATE crash.nopk SET b = 'y' WHERE a = i - 500 LIMIT 1; END IF;
    COMMIT;
    SET i = i + 1;
  END WHILE;
END//
DELIMITER ;
CALL crash.work(0, 20000);
ALTER TABLE crash.acct ADD COLUMN extra INT NOT NULL DEFAULT 0;
CREATE TABLE crash.more (id INT PRIMARY KEY, v INT);
INSERT INTO crash.more VALUES (1, 1), (2, 2);
CALL crash.work(20000, 15000);
ALTER TABLE crash.log ADD KEY k_acct (acct);
RENAME TABLE crash.more TO crash.more2;
CALL crash.work(35000, 14990);
