-- Pets, orders and API keys (the PostgreSQL twin of migrations/sqlite).
-- Nothing is ever deleted: a cancelled order keeps its row (status
-- 'cancelled'), a revoked key keeps its row (revoked_at set).
-- Timestamps are RFC 3339 UTC text, as in SQLite, so that one set of
-- queries serves both backends.

CREATE TABLE pets (
    id         BIGINT PRIMARY KEY,
    name       TEXT   NOT NULL,
    created_at TEXT   NOT NULL
);

CREATE TABLE orders (
    id         BIGINT PRIMARY KEY,
    pet_id     BIGINT REFERENCES pets (id),
    quantity   BIGINT,
    ship_date  TEXT,
    complete   BOOLEAN,
    status     TEXT   NOT NULL CHECK (status IN ('pending', 'shipped', 'cancelled')),
    created_at TEXT   NOT NULL,
    updated_at TEXT   NOT NULL
);

CREATE TABLE api_keys (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       TEXT   NOT NULL,
    -- SHA-256 of the key's secret part; the key itself is never stored.
    key_hash   BYTEA  NOT NULL,
    created_at TEXT   NOT NULL,
    revoked_at TEXT
);
