-- A counter that every change to orders bumps, in the same transaction, by
-- a trigger: whoever makes the change (this server, another instance, the
-- CLI). The list cache compares it before serving.
CREATE TABLE changes (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    counter BIGINT  NOT NULL
);
INSERT INTO changes (id, counter) VALUES (1, 0);

CREATE FUNCTION bump_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE changes SET counter = counter + 1 WHERE id = 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER orders_changed AFTER INSERT OR UPDATE OR DELETE ON orders
    FOR EACH STATEMENT EXECUTE FUNCTION bump_changes();
