extension Schema {
    /// Versions 1 and 2 of ``migrations``: accounts, the event log and its projections.
    static let migrations1to2: [Migration] = [
        Migration(
            version: 1, name: "create_accounts_and_event_log",
            sqlite: [
                """
                CREATE TABLE accounts (
                  user_id TEXT NOT NULL,
                  email TEXT NOT NULL,
                  password_hash TEXT NOT NULL,
                  created_at REAL NOT NULL,
                  PRIMARY KEY (user_id)
                )
                """,
                """
                CREATE TABLE account_emails (
                  email TEXT NOT NULL,
                  user_id TEXT NOT NULL,
                  PRIMARY KEY (email),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE profiles (
                  user_id TEXT NOT NULL,
                  display_name TEXT NOT NULL,
                  time_zone TEXT NOT NULL,
                  day_start_hour INTEGER NOT NULL,
                  pack TEXT NOT NULL,
                  preferences TEXT NOT NULL,
                  updated_at REAL NOT NULL,
                  PRIMARY KEY (user_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE device_sessions (
                  user_id TEXT NOT NULL,
                  token_hash TEXT NOT NULL,
                  device_name TEXT NOT NULL,
                  created_at REAL NOT NULL,
                  last_seen_at REAL NOT NULL,
                  expires_at REAL,
                  PRIMARY KEY (user_id, token_hash),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE events (
                  user_id TEXT NOT NULL,
                  seq INTEGER NOT NULL,
                  event_id TEXT NOT NULL,
                  type TEXT NOT NULL,
                  at REAL NOT NULL,
                  time_zone TEXT NOT NULL,
                  body TEXT NOT NULL,
                  received_at REAL NOT NULL,
                  device TEXT,
                  PRIMARY KEY (user_id, seq),
                  UNIQUE (user_id, event_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE user_heads (
                  user_id TEXT NOT NULL,
                  version INTEGER NOT NULL,
                  head_seq INTEGER NOT NULL,
                  diamonds INTEGER NOT NULL,
                  freezes INTEGER NOT NULL,
                  evaluated_at REAL NOT NULL,
                  PRIMARY KEY (user_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
            ],
            postgres: [
                """
                CREATE TABLE accounts (
                  user_id TEXT NOT NULL,
                  email TEXT NOT NULL,
                  password_hash TEXT NOT NULL,
                  created_at DOUBLE PRECISION NOT NULL,
                  PRIMARY KEY (user_id)
                )
                """,
                """
                CREATE TABLE account_emails (
                  email TEXT NOT NULL,
                  user_id TEXT NOT NULL,
                  PRIMARY KEY (email),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE profiles (
                  user_id TEXT NOT NULL,
                  display_name TEXT NOT NULL,
                  time_zone TEXT NOT NULL,
                  day_start_hour BIGINT NOT NULL,
                  pack TEXT NOT NULL,
                  preferences TEXT NOT NULL,
                  updated_at DOUBLE PRECISION NOT NULL,
                  PRIMARY KEY (user_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE device_sessions (
                  user_id TEXT NOT NULL,
                  token_hash TEXT NOT NULL,
                  device_name TEXT NOT NULL,
                  created_at DOUBLE PRECISION NOT NULL,
                  last_seen_at DOUBLE PRECISION NOT NULL,
                  expires_at DOUBLE PRECISION,
                  PRIMARY KEY (user_id, token_hash),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE events (
                  user_id TEXT NOT NULL,
                  seq BIGINT NOT NULL,
                  event_id TEXT NOT NULL,
                  type TEXT NOT NULL,
                  at DOUBLE PRECISION NOT NULL,
                  time_zone TEXT NOT NULL,
                  body TEXT NOT NULL,
                  received_at DOUBLE PRECISION NOT NULL,
                  device TEXT,
                  PRIMARY KEY (user_id, seq),
                  UNIQUE (user_id, event_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE user_heads (
                  user_id TEXT NOT NULL,
                  version BIGINT NOT NULL,
                  head_seq BIGINT NOT NULL,
                  diamonds BIGINT NOT NULL,
                  freezes BIGINT NOT NULL,
                  evaluated_at DOUBLE PRECISION NOT NULL,
                  PRIMARY KEY (user_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
            ]
        ),
        Migration(
            version: 2, name: "create_projections",
            sqlite: [
                """
                CREATE TABLE habits (
                  user_id TEXT NOT NULL,
                  habit_id TEXT NOT NULL,
                  ordinal INTEGER NOT NULL,
                  name TEXT NOT NULL,
                  archived INTEGER NOT NULL,
                  current_streak INTEGER NOT NULL,
                  best_streak INTEGER NOT NULL,
                  state TEXT NOT NULL,
                  PRIMARY KEY (user_id, habit_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE subjects (
                  user_id TEXT NOT NULL,
                  subject_id TEXT NOT NULL,
                  kind TEXT NOT NULL,
                  name TEXT NOT NULL,
                  body TEXT NOT NULL,
                  PRIMARY KEY (user_id, subject_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE ledger (
                  user_id TEXT NOT NULL,
                  position INTEGER NOT NULL,
                  day INTEGER NOT NULL,
                  source TEXT NOT NULL,
                  diamonds INTEGER NOT NULL,
                  freezes INTEGER NOT NULL,
                  diamond_balance INTEGER NOT NULL,
                  freeze_balance INTEGER NOT NULL,
                  reason TEXT NOT NULL,
                  body TEXT NOT NULL,
                  PRIMARY KEY (user_id, position),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE unlocks (
                  user_id TEXT NOT NULL,
                  unlock_id TEXT NOT NULL,
                  rule TEXT NOT NULL,
                  title TEXT NOT NULL,
                  category TEXT NOT NULL,
                  tier INTEGER NOT NULL,
                  achieved_at REAL NOT NULL,
                  detected_at REAL NOT NULL,
                  retroactive INTEGER NOT NULL,
                  body TEXT NOT NULL,
                  PRIMARY KEY (user_id, unlock_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE celebration_planners (
                  user_id TEXT NOT NULL,
                  planner TEXT NOT NULL,
                  updated_at REAL NOT NULL,
                  PRIMARY KEY (user_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE memories (
                  user_id TEXT NOT NULL,
                  memory_id TEXT NOT NULL,
                  unlock_id TEXT NOT NULL,
                  day INTEGER NOT NULL,
                  category TEXT NOT NULL,
                  caption TEXT NOT NULL,
                  note TEXT,
                  photo TEXT,
                  share_photo TEXT,
                  body TEXT NOT NULL,
                  PRIMARY KEY (user_id, memory_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE progression (
                  user_id TEXT NOT NULL,
                  method_id TEXT NOT NULL,
                  position INTEGER NOT NULL,
                  event_id TEXT NOT NULL,
                  body TEXT NOT NULL,
                  PRIMARY KEY (user_id, method_id, position),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                "CREATE INDEX unlocks_by_achieved ON unlocks (user_id, achieved_at)",
                "CREATE INDEX memories_by_day ON memories (user_id, day)",
            ],
            postgres: [
                """
                CREATE TABLE habits (
                  user_id TEXT NOT NULL,
                  habit_id TEXT NOT NULL,
                  ordinal BIGINT NOT NULL,
                  name TEXT NOT NULL,
                  archived BIGINT NOT NULL,
                  current_streak BIGINT NOT NULL,
                  best_streak BIGINT NOT NULL,
                  state TEXT NOT NULL,
                  PRIMARY KEY (user_id, habit_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE subjects (
                  user_id TEXT NOT NULL,
                  subject_id TEXT NOT NULL,
                  kind TEXT NOT NULL,
                  name TEXT NOT NULL,
                  body TEXT NOT NULL,
                  PRIMARY KEY (user_id, subject_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE ledger (
                  user_id TEXT NOT NULL,
                  position BIGINT NOT NULL,
                  day BIGINT NOT NULL,
                  source TEXT NOT NULL,
                  diamonds BIGINT NOT NULL,
                  freezes BIGINT NOT NULL,
                  diamond_balance BIGINT NOT NULL,
                  freeze_balance BIGINT NOT NULL,
                  reason TEXT NOT NULL,
                  body TEXT NOT NULL,
                  PRIMARY KEY (user_id, position),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE unlocks (
                  user_id TEXT NOT NULL,
                  unlock_id TEXT NOT NULL,
                  rule TEXT NOT NULL,
                  title TEXT NOT NULL,
                  category TEXT NOT NULL,
                  tier BIGINT NOT NULL,
                  achieved_at DOUBLE PRECISION NOT NULL,
                  detected_at DOUBLE PRECISION NOT NULL,
                  retroactive BIGINT NOT NULL,
                  body TEXT NOT NULL,
                  PRIMARY KEY (user_id, unlock_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE celebration_planners (
                  user_id TEXT NOT NULL,
                  planner TEXT NOT NULL,
                  updated_at DOUBLE PRECISION NOT NULL,
                  PRIMARY KEY (user_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE memories (
                  user_id TEXT NOT NULL,
                  memory_id TEXT NOT NULL,
                  unlock_id TEXT NOT NULL,
                  day BIGINT NOT NULL,
                  category TEXT NOT NULL,
                  caption TEXT NOT NULL,
                  note TEXT,
                  photo TEXT,
                  share_photo TEXT,
                  body TEXT NOT NULL,
                  PRIMARY KEY (user_id, memory_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE progression (
                  user_id TEXT NOT NULL,
                  method_id TEXT NOT NULL,
                  position BIGINT NOT NULL,
                  event_id TEXT NOT NULL,
                  body TEXT NOT NULL,
                  PRIMARY KEY (user_id, method_id, position),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                "CREATE INDEX unlocks_by_achieved ON unlocks (user_id, achieved_at)",
                "CREATE INDEX memories_by_day ON memories (user_id, day)",
            ]
        ),
    ]
}
