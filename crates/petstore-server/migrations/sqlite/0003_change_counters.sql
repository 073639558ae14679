-- A second counter in the `changes` row, bumped by every change to API
-- keys in the same transaction: the service's key cache compares it, so
-- that a revoked key stops working at once, whoever revoked it.
ALTER TABLE changes ADD COLUMN keys_counter INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER api_keys_inserted AFTER INSERT ON api_keys
BEGIN
    UPDATE changes SET keys_counter = keys_counter + 1 WHERE id = 1;
END;

CREATE TRIGGER api_keys_updated AFTER UPDATE ON api_keys
BEGIN
    UPDATE changes SET keys_counter = keys_counter + 1 WHERE id = 1;
END;

CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys
BEGIN
    UPDATE changes SET keys_counter = keys_counter + 1 WHERE id = 1;
END;
