-- Row changes made by a trigger on the source are already in the binlog: applying must not fire the
-- target's trigger again. Cascaded foreign-key changes are not in the binlog: the target cascades.
CREATE DATABASE @DB@;
USE @DB@;
CREATE TABLE acct (id INT PRIMARY KEY, balance INT);
CREATE TABLE audit (id INT AUTO_INCREMENT PRIMARY KEY, acct INT, what VARCHAR(10), amount INT);
CREATE TRIGGER acct_ins AFTER INSERT ON acct FOR EACH ROW INSERT INTO audit (acct, what, amount) VALUES (NEW.id, 'insert', NEW.balance);
CREATE TRIGGER acct_upd BEFORE UPDATE ON acct FOR EACH ROW SET NEW.balance = NEW.balance + 1000;
INSERT INTO acct VALUES (1, 10), (2, 20);
UPDATE acct SET balance = balance + 1 WHERE id = 1;
CREATE TABLE parent (id INT PRIMARY KEY, name VARCHAR(10)) ENGINE = InnoDB;
CREATE TABLE child (id INT PRIMARY KEY, parent_id INT, v INT,
  FOREIGN KEY (parent_id) REFERENCES parent (id) ON DELETE CASCADE ON UPDATE CASCADE) ENGINE = InnoDB;
CREATE TABLE grandchild (id INT PRIMARY KEY, child_id INT,
  FOREIGN KEY (child_id) REFERENCES child (id) ON DELETE SET NULL) ENGINE = InnoDB;
INSERT INTO parent VALUES (1, 'p1'), (2, 'p2'), (3, 'p3');
INSERT INTO child VALUES (10, 1, 1), (11, 1, 2), (20, 2, 3), (30, 3, 4);
INSERT INTO grandchild VALUES (100, 10), (101, 20);
DELETE FROM parent WHERE id = 1;
UPDATE parent SET id = 22 WHERE id = 2;
SET SESSION foreign_key_checks = 0;
INSERT INTO child VALUES (99, 999, 0);
SET SESSION foreign_key_checks = 1;
