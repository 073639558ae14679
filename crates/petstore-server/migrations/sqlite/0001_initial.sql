-- Pets, orders and API keys. Nothing is ever deleted: a cancelled order
-- keeps its row (status 'cancelled'), a revoked key keeps its row
-- (revoked_at set), so the history stays auditable.

CREATE TABLE pets (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    created_at TEXT    NOT NULL
);

CREATE TABLE orders (
    id         INTEGER PRIMARY KEY,
    pet_id     INTEGER REFERENCES pets (id),
    quantity   INTEGER,
    ship_date  TEXT,
    complete   INTEGER CHECK (complete IN (0, 1)),
    status     TEXT    NOT NULL CHECK (status IN ('pending', 'shipped', 'cancelled')),
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL
);

CREATE TABLE api_keys (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL,
    -- SHA-256 of the key's secret part; the key itself is never stored.
    key_hash   BLOB    NOT NULL,
    created_at TEXT    NOT NULL,
    revoked_at TEXT
);
