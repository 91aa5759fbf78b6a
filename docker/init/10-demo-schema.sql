-- The demo schema, loaded into BOTH the source and the target when their data directories are
-- first created: binlog-applier needs a target that starts identical to the source. Every value
-- is spelled out (no CURRENT_TIMESTAMP defaults taken at load time) so that the two copies match.
CREATE DATABASE demo;

CREATE TABLE demo.customers (
  id         INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name       VARCHAR(100) NOT NULL,
  email      VARCHAR(255) NOT NULL,
  created_at DATETIME(6)  NOT NULL,
  UNIQUE KEY uk_email (email)
);

CREATE TABLE demo.orders (
  id          BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  customer_id INT UNSIGNED    NOT NULL,
  amount      DECIMAL(12,2)   NOT NULL,
  status      ENUM('new','paid','shipped') NOT NULL DEFAULT 'new',
  note        TEXT            NULL,
  created_at  DATETIME(6)     NOT NULL,
  KEY ix_customer (customer_id)
);

INSERT INTO demo.customers (id, name, email, created_at) VALUES
  (1, 'Ada Lovelace',    'ada@example.com',    '2024-01-01 10:00:00.000000'),
  (2, 'Grace Hopper',    'grace@example.com',  '2024-01-02 11:30:00.000000'),
  (3, 'Edsger Dijkstra', 'edsger@example.com', '2024-01-03 12:45:00.000000');

INSERT INTO demo.orders (id, customer_id, amount, status, note, created_at) VALUES
  (1, 1, 19.99, 'paid',    NULL,                '2024-02-01 09:00:00.000000'),
  (2, 2, 5.00,  'new',     'gift wrap',         '2024-02-02 09:15:00.000000'),
  (3, 3, 120.50,'shipped', 'leave at the door', '2024-02-03 17:20:00.000000');
