#!/usr/bin/env sysbench
-- The `mixed` workload of scripts/bench.sh: small transactions over the table shapes that make a
-- replica's job hard, none of which sysbench's own scripts have:
--   uq_accounts  a secondary UNIQUE key whose values move between rows (a delete or re-key frees an
--                e-mail that a later insert or re-key of another row takes)
--   fk_parent, fk_child
--                a foreign key ON DELETE CASCADE ON UPDATE CASCADE on the parent's unique `code`: the
--                binlog carries only the parent's row, the target's InnoDB repeats the cascade, so a
--                child row change and a parent change that cascades to it must keep their order
--   trg_orders   AFTER INSERT/UPDATE/DELETE triggers writing trg_audit. In row format the binlog
--                carries the audit rows the trigger wrote; the target has the same triggers (they are
--                created here, and the CREATE TRIGGER statements replicate), which must not fire again
--   nopk_log     no primary or unique key (a plain index on k), with duplicate rows
--   customers, orders, order_items
--                (group "orders", not in the default groups; prepare creates them only then) a chain of
--                two foreign keys ON DELETE CASCADE, as shops have them: an order is its row and a few
--                item rows, each inserted by a statement of its own; statuses and quantities change;
--                an order is deleted with its items, now and then a customer with its orders and items
-- Each transaction runs 1..ops statements, each a random one of the operations below. Run it with
-- --mysql-ignore-errors=1213,1205,1020,1467 (bench.sh does): a deadlock, a lock wait timeout, or a
-- deadlock while INSERT...SELECT waits for fk_child's AUTO-INC lock (MariaDB reports that one as 1467
-- "Failed to read auto-increment value from storage engine") rolls the transaction back and the event
-- starts again, so only whole transactions reach the binlog.
--
--   sysbench scripts/bench/mixed.lua --db-driver=mysql --mysql-db=mixed ... --table-size=N prepare
--   sysbench scripts/bench/mixed.lua --db-driver=mysql --mysql-db=mixed ... --threads=4 --time=60 run

sysbench.cmdline.options = {
   table_size = {"Rows of each table after prepare", 10000},
   ops = {"Most statements per transaction (each transaction runs 1..ops)", 4},
   groups = {"Which tables the transactions change, comma-separated, of uq,fk,trg,nopk,orders "
      .. "(prepare creates and fills the tables of all of them but orders, and those of orders when named)",
      "uq,fk,trg,nopk"},
}

-- fk_parent.code is id + CODE_STEP * (times re-keyed), so codes stay unique without a lookup
local CODE_STEP = 10000000

local function n() return sysbench.opt.table_size end
local function has_group(name)
   for g in string.gmatch(sysbench.opt.groups, "[^,%s]+") do
      if g == name then return true end
   end
   return false
end
local function rnd(lo, hi) return sysbench.rand.uniform(lo, hi) end

local function insert_rows(con, head, count, row)
   local batch = {}
   for i = 1, count do
      batch[#batch + 1] = row(i)
      if #batch == 1000 or i == count then
         con:query(head .. table.concat(batch, ","))
         batch = {}
      end
   end
end

function cmd_prepare()
   local con = sysbench.sql.driver():connect()
   assert(n() < CODE_STEP, "table_size must be below " .. CODE_STEP)
   con:query([[CREATE TABLE uq_accounts (
       id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
       email VARCHAR(64) NOT NULL,
       balance INT NOT NULL,
       UNIQUE KEY email (email)) ENGINE=InnoDB]])
   con:query([[CREATE TABLE fk_parent (
       id INT NOT NULL PRIMARY KEY,
       code BIGINT NOT NULL,
       name VARCHAR(32) NOT NULL,
       UNIQUE KEY code (code)) ENGINE=InnoDB]])
   con:query([[CREATE TABLE fk_child (
       id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
       parent_code BIGINT NOT NULL,
       qty INT NOT NULL,
       KEY parent_code (parent_code),
       CONSTRAINT fk_child_parent FOREIGN KEY (parent_code) REFERENCES fk_parent (code)
         ON DELETE CASCADE ON UPDATE CASCADE) ENGINE=InnoDB]])
   con:query([[CREATE TABLE trg_orders (
       id INT NOT NULL PRIMARY KEY,
       customer INT NOT NULL,
       amount INT NOT NULL,
       status VARCHAR(16) NOT NULL) ENGINE=InnoDB]])
   con:query([[CREATE TABLE trg_audit (
       id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
       order_id INT NOT NULL,
       action CHAR(1) NOT NULL,
       old_amount INT NULL,
       new_amount INT NULL) ENGINE=InnoDB]])
   con:query([[CREATE TRIGGER trg_orders_ai AFTER INSERT ON trg_orders FOR EACH ROW
       INSERT INTO trg_audit (order_id, action, new_amount) VALUES (NEW.id, 'I', NEW.amount)]])
   con:query([[CREATE TRIGGER trg_orders_au AFTER UPDATE ON trg_orders FOR EACH ROW
       INSERT INTO trg_audit (order_id, action, old_amount, new_amount)
       VALUES (NEW.id, 'U', OLD.amount, NEW.amount)]])
   con:query([[CREATE TRIGGER trg_orders_ad AFTER DELETE ON trg_orders FOR EACH ROW
       INSERT INTO trg_audit (order_id, action, old_amount) VALUES (OLD.id, 'D', OLD.amount)]])
   con:query([[CREATE TABLE nopk_log (
       k INT NOT NULL,
       v INT NOT NULL,
       note VARCHAR(32) NOT NULL,
       KEY k (k)) ENGINE=InnoDB]])

   local keys = math.max(1, math.floor(n() / 4))
   insert_rows(con, "INSERT INTO uq_accounts (id, email, balance) VALUES ", n(), function(i)
      return string.format("(%d,'user%d@example.com',%d)", i, i, i % 1000) end)
   insert_rows(con, "INSERT INTO fk_parent (id, code, name) VALUES ", n(), function(i)
      return string.format("(%d,%d,'p%d')", i, i, i) end)
   insert_rows(con, "INSERT INTO fk_child (parent_code, qty) VALUES ", n(), function(i)
      return string.format("(%d,%d)", (i * 7) % n() + 1, i % 10) end)
   insert_rows(con, "INSERT INTO trg_orders (id, customer, amount, status) VALUES ", n(), function(i)
      return string.format("(%d,%d,%d,'new')", i, i % 97, i % 500) end)
   insert_rows(con, "INSERT INTO nopk_log (k, v, note) VALUES ", n(), function(i)
      return string.format("(%d,%d,'x')", i % keys + 1, i % 3) end)
   if has_group("orders") then
      con:query([[CREATE TABLE customers (
          id INT NOT NULL PRIMARY KEY,
          name VARCHAR(32) NOT NULL) ENGINE=InnoDB]])
      con:query([[CREATE TABLE orders (
          id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
          customer_id INT NOT NULL,
          status VARCHAR(16) NOT NULL,
          total INT NOT NULL,
          KEY customer_id (customer_id),
          CONSTRAINT orders_customer FOREIGN KEY (customer_id) REFERENCES customers (id)
            ON DELETE CASCADE) ENGINE=InnoDB]])
      con:query([[CREATE TABLE order_items (
          id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
          order_id INT NOT NULL,
          sku INT NOT NULL,
          qty INT NOT NULL,
          KEY order_id (order_id),
          CONSTRAINT items_order FOREIGN KEY (order_id) REFERENCES orders (id)
            ON DELETE CASCADE) ENGINE=InnoDB]])
      insert_rows(con, "INSERT INTO customers (id, name) VALUES ", n(), function(i)
         return string.format("(%d,'c%d')", i, i) end)
      insert_rows(con, "INSERT INTO orders (id, customer_id, status, total) VALUES ", n(), function(i)
         return string.format("(%d,%d,'new',2)", i, (i * 13) % n() + 1) end)
      insert_rows(con, "INSERT INTO order_items (order_id, sku, qty) VALUES ", 2 * n(), function(i)
         return string.format("(%d,%d,1)", (i - 1) % n() + 1, i % 500) end)
   end
   con:disconnect()
end

sysbench.cmdline.commands = {
   prepare = {cmd_prepare},
}

local groups = {}
groups.uq = { -- secondary UNIQUE key
   function() -- an e-mail that exists adds to its balance (the binlog has an update), else a new row
      con:query(string.format([[INSERT INTO uq_accounts (email, balance) VALUES ('user%d@example.com', %d)
         ON DUPLICATE KEY UPDATE balance = balance + VALUES(balance)]], rnd(1, 2 * n()), rnd(1, 100)))
   end,
   function() -- move a row to another e-mail, unless that one is taken
      con:query(string.format("UPDATE IGNORE uq_accounts SET email = 'user%d@example.com' WHERE id = %d",
         rnd(1, 2 * n()), rnd(1, 2 * n())))
   end,
   function()
      con:query(string.format("DELETE FROM uq_accounts WHERE email = 'user%d@example.com'", rnd(1, 2 * n())))
   end,
}
groups.fk = { -- foreign key with cascades
   function() -- a parent that is gone comes back (code = id, which no other parent can hold)
      local id = rnd(1, n())
      con:query(string.format("INSERT IGNORE INTO fk_parent (id, code, name) VALUES (%d, %d, 'p%d')", id, id, id))
   end,
   function() -- re-key a parent: its children follow by ON UPDATE CASCADE
      con:query(string.format("UPDATE fk_parent SET code = code + %d WHERE id = %d", CODE_STEP, rnd(1, n())))
   end,
   function() -- delete a parent: its children go by ON DELETE CASCADE
      con:query(string.format("DELETE FROM fk_parent WHERE id = %d", rnd(1, n())))
   end,
   function() -- a child of a parent that exists
      con:query(string.format("INSERT INTO fk_child (parent_code, qty) SELECT code, %d FROM fk_parent WHERE id = %d",
         rnd(1, 10), rnd(1, n())))
   end,
   function() -- the children of one parent, found through it
      con:query(string.format([[UPDATE fk_child c JOIN fk_parent p ON c.parent_code = p.code
         SET c.qty = c.qty + 1 WHERE p.id = %d]], rnd(1, n())))
   end,
   function()
      con:query(string.format("DELETE FROM fk_child WHERE id = %d", rnd(1, 2 * n())))
   end,
}
groups.trg = { -- triggers
   function() -- a new order, or an update of the existing one (either fires a trigger)
      con:query(string.format([[INSERT INTO trg_orders (id, customer, amount, status) VALUES (%d, %d, %d, 'new')
         ON DUPLICATE KEY UPDATE amount = amount + 1, status = 'again']], rnd(1, 2 * n()), rnd(1, 97), rnd(1, 500)))
   end,
   function()
      con:query(string.format("UPDATE trg_orders SET amount = amount + %d, status = 'paid' WHERE id = %d",
         rnd(1, 50), rnd(1, 2 * n())))
   end,
   function()
      con:query(string.format("DELETE FROM trg_orders WHERE id = %d", rnd(1, 2 * n())))
   end,
}
groups.nopk = { -- no primary key; rows with the same k are often identical
   function()
      con:query(string.format("INSERT INTO nopk_log (k, v, note) VALUES (%d, %d, 'x')",
         rnd(1, math.max(1, math.floor(n() / 4))), rnd(0, 2)))
   end,
   function() -- every row of one k
      con:query(string.format("UPDATE nopk_log SET v = v + 1 WHERE k = %d", rnd(1, math.max(1, math.floor(n() / 4)))))
   end,
   function() -- one of the rows of one k
      con:query(string.format("DELETE FROM nopk_log WHERE k = %d LIMIT 1", rnd(1, math.max(1, math.floor(n() / 4)))))
   end,
}

groups.orders = { -- two foreign keys in a chain, ON DELETE CASCADE
   function() -- an order and its items, a statement each; its customer is there (again, if deleted)
      local c = rnd(1, n())
      con:query(string.format("INSERT IGNORE INTO customers (id, name) VALUES (%d, 'c%d')", c, c))
      con:query(string.format("INSERT INTO orders (customer_id, status, total) VALUES (%d, 'new', 0)", c))
      con:query("SET @o = LAST_INSERT_ID()")
      local total = 0
      for _ = 1, rnd(1, 4) do
         local q = rnd(1, 5)
         total = total + q
         con:query(string.format("INSERT INTO order_items (order_id, sku, qty) VALUES (@o, %d, %d)", rnd(1, 500), q))
      end
      con:query(string.format("UPDATE orders SET total = %d WHERE id = @o", total))
   end,
   function()
      con:query(string.format("UPDATE orders SET status = 'shipped' WHERE id = %d", rnd(1, 2 * n())))
   end,
   function()
      con:query(string.format("UPDATE order_items SET qty = qty + 1 WHERE id = %d", rnd(1, 4 * n())))
   end,
   function() -- its items go by ON DELETE CASCADE
      con:query(string.format("DELETE FROM orders WHERE id = %d", rnd(1, 2 * n())))
   end,
   function() -- now and then a customer: its orders and their items go by ON DELETE CASCADE
      if rnd(1, 10) == 1 then
         con:query(string.format("DELETE FROM customers WHERE id = %d", rnd(1, n())))
      end
   end,
}

local ops = {}

function thread_init()
   con = sysbench.sql.driver():connect()
   for g in string.gmatch(sysbench.opt.groups, "[^,%s]+") do
      assert(groups[g], "unknown group '" .. g .. "' in --groups (uq, fk, trg, nopk, orders)")
      for _, op in ipairs(groups[g]) do ops[#ops + 1] = op end
   end
   assert(#ops > 0, "--groups names no group")
end

function thread_done()
   con:disconnect()
end

-- an ignored error (deadlock, lock wait timeout) restarts the event: end its transaction first, so
-- that the next BEGIN does not commit half of it
sysbench.hooks.before_restart_event = function()
   con:query("ROLLBACK")
end

function event()
   con:query("BEGIN")
   for _ = 1, rnd(1, sysbench.opt.ops) do
      ops[rnd(1, #ops)]()
   end
   con:query("COMMIT")
end
