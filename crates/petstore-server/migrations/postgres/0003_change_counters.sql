-- Two counters in the `changes` row: `counter` for orders (the list
-- cache) and `keys_counter` for API keys (the key cache), each bumped only
-- by statements that change rows, so that a cancel of an order that is not
-- pending (404, 409) does not make the list cache read every order again.
-- One trigger per event, as PostgreSQL allows a transition table only on a
-- single-event trigger; all name theirs `changed_rows`. (SQLite's triggers
-- run per changed row, so its migration only adds the keys counter.)
ALTER TABLE changes ADD COLUMN keys_counter BIGINT NOT NULL DEFAULT 0;

DROP TRIGGER orders_changed ON orders;
DROP FUNCTION bump_changes();

-- TG_ARGV[0] names the column to bump.
CREATE FUNCTION bump_changes_if_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM changed_rows) THEN
        EXECUTE format('UPDATE changes SET %I = %I + 1 WHERE id = 1', TG_ARGV[0], TG_ARGV[0]);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER orders_inserted AFTER INSERT ON orders
    REFERENCING NEW TABLE AS changed_rows
    FOR EACH STATEMENT EXECUTE FUNCTION bump_changes_if_rows('counter');
CREATE TRIGGER orders_updated AFTER UPDATE ON orders
    REFERENCING NEW TABLE AS changed_rows
    FOR EACH STATEMENT EXECUTE FUNCTION bump_changes_if_rows('counter');
CREATE TRIGGER orders_deleted AFTER DELETE ON orders
    REFERENCING OLD TABLE AS changed_rows
    FOR EACH STATEMENT EXECUTE FUNCTION bump_changes_if_rows('counter');

CREATE TRIGGER api_keys_inserted AFTER INSERT ON api_keys
    REFERENCING NEW TABLE AS changed_rows
    FOR EACH STATEMENT EXECUTE FUNCTION bump_changes_if_rows('keys_counter');
CREATE TRIGGER api_keys_updated AFTER UPDATE ON api_keys
    REFERENCING NEW TABLE AS changed_rows
    FOR EACH STATEMENT EXECUTE FUNCTION bump_changes_if_rows('keys_counter');
CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys
    REFERENCING OLD TABLE AS changed_rows
    FOR EACH STATEMENT EXECUTE FUNCTION bump_changes_if_rows('keys_counter');
