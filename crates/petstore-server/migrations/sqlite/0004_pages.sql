-- What version 2's pages need.
--
-- Ship dates in one fixed form, with the nanoseconds always written out
-- (`2026-12-01T09:00:00.000000000Z`), so that comparing the text compares
-- the instants and the shipDateFrom/shipDateTo filters run in SQL. Rows
-- written before carry as many fraction digits as their instant needed
-- (chrono's AutoSi): none, 3, 6 or 9, in 20, 24, 27 or 30 characters.
UPDATE orders
SET ship_date = substr(ship_date, 1, 19)
    || CASE length(ship_date)
           WHEN 20 THEN '.000000000'
           WHEN 24 THEN substr(ship_date, 20, 4) || '000000'
           ELSE substr(ship_date, 20, 7) || '000'
       END
    || 'Z'
WHERE length(ship_date) IN (20, 24, 27);

-- The petId filter walks a pet's orders by id.
CREATE INDEX orders_by_pet ON orders (pet_id, id);

-- Secrets shared by every instance on this database: the key that signs
-- page cursors (name 'cursor'), made by the first instance that needs it.
CREATE TABLE secrets (
    name  TEXT  PRIMARY KEY,
    value BLOB NOT NULL
);
