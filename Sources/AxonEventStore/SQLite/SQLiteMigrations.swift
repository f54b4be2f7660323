/// Schema migrations, each applied once per file, in order, recorded by identifier.
///
/// The record is the table `grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)`: the layout of the GRDB
/// migrator that wrote the store's files before, kept so that every existing file opens as it is.
///
/// Threading: a value type; ``migrate(_:)`` runs on the pool's writer.
struct SQLiteMigrations: Sendable {
    private(set) var migrations: [(identifier: String, sql: String)] = []

    /// Adds a migration after those already registered.
    mutating func register(_ identifier: String, sql: String) {
        migrations.append((identifier, sql))
    }

    /// The identifiers of the migrations applied to the file (none for a new file).
    func appliedIdentifiers(_ pool: SQLitePool) throws -> Set<String> {
        try pool.read { connection in
            let exists =
                try connection.integer(
                    "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'") ?? 0
            guard exists > 0 else { return [] }
            return Set(try connection.texts("SELECT identifier FROM grdb_migrations"))
        }
    }

    /// Applies the registered migrations the file lacks, each in its own write transaction with its record.
    func migrate(_ pool: SQLitePool) throws {
        try pool.write { connection in
            try connection.execute("CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
        for (identifier, sql) in migrations {
            try pool.write { connection in
                let applied =
                    try connection.integer(
                        "SELECT COUNT(*) FROM grdb_migrations WHERE identifier = ?", [.text(identifier)]) ?? 0
                guard applied == 0 else { return }
                try connection.execute(sql)
                try connection.statement("INSERT INTO grdb_migrations (identifier) VALUES (?)").run([.text(identifier)])
            }
        }
    }
}
