-- A counter that every change to orders bumps, in the same transaction, by
-- triggers: whoever makes the change (this server, another instance, the
-- CLI). The list cache compares it before serving.
CREATE TABLE changes (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    counter INTEGER NOT NULL
);
INSERT INTO changes (id, counter) VALUES (1, 0);

CREATE TRIGGER orders_inserted AFTER INSERT ON orders
BEGIN
    UPDATE changes SET counter = counter + 1 WHERE id = 1;
END;

CREATE TRIGGER orders_updated AFTER UPDATE ON orders
BEGIN
    UPDATE changes SET counter = counter + 1 WHERE id = 1;
END;

CREATE TRIGGER orders_deleted AFTER DELETE ON orders
BEGIN
    UPDATE changes SET counter = counter + 1 WHERE id = 1;
END;
