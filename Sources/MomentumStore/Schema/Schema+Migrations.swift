/// Momentum's migrations, each frozen as the SQL it ran.
///
/// A migration that shipped is never edited: its statements are written out here as text,
/// not generated from the table descriptions in ``Schema``, so that changing a table's
/// description cannot change what an existing database was built with. A schema change
/// is a new migration at the end; `SchemaTests` pins a checksum of every shipped one, and
/// the conformance suite checks that migrating an empty database gives exactly the tables
/// ``Schema/tables`` describes, on every backend.
extension Schema {
    /// Every migration, in order. Append new ones; never edit one that shipped.
    public static let migrations: [Migration] = [
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
        Migration(
            version: 3, name: "create_idempotency_and_photos",
            sqlite: [
                """
                CREATE TABLE idempotency_keys (
                  user_id TEXT NOT NULL,
                  idempotency_key TEXT NOT NULL,
                  request_hash TEXT NOT NULL,
                  status INTEGER NOT NULL,
                  response BLOB NOT NULL,
                  created_at REAL NOT NULL,
                  PRIMARY KEY (user_id, idempotency_key),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE photos (
                  user_id TEXT NOT NULL,
                  path TEXT NOT NULL,
                  content_type TEXT NOT NULL,
                  bytes BLOB NOT NULL,
                  created_at REAL NOT NULL,
                  PRIMARY KEY (user_id, path),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
            ],
            postgres: [
                """
                CREATE TABLE idempotency_keys (
                  user_id TEXT NOT NULL,
                  idempotency_key TEXT NOT NULL,
                  request_hash TEXT NOT NULL,
                  status BIGINT NOT NULL,
                  response BYTEA NOT NULL,
                  created_at DOUBLE PRECISION NOT NULL,
                  PRIMARY KEY (user_id, idempotency_key),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE photos (
                  user_id TEXT NOT NULL,
                  path TEXT NOT NULL,
                  content_type TEXT NOT NULL,
                  bytes BYTEA NOT NULL,
                  created_at DOUBLE PRECISION NOT NULL,
                  PRIMARY KEY (user_id, path),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
            ]
        ),
        Migration(
            version: 4, name: "add_notifications_and_review_flags",
            sqlite: [
                """
                CREATE TABLE review_flags (
                  user_id TEXT NOT NULL,
                  flag_id TEXT NOT NULL,
                  kind TEXT NOT NULL,
                  detail TEXT NOT NULL,
                  events TEXT NOT NULL,
                  created_at REAL NOT NULL,
                  PRIMARY KEY (user_id, flag_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                "ALTER TABLE profiles ADD COLUMN notifications TEXT NOT NULL DEFAULT '{}'",
                "CREATE INDEX review_flags_by_time ON review_flags (created_at)",
            ],
            postgres: [
                """
                CREATE TABLE review_flags (
                  user_id TEXT NOT NULL,
                  flag_id TEXT NOT NULL,
                  kind TEXT NOT NULL,
                  detail TEXT NOT NULL,
                  events TEXT NOT NULL,
                  created_at DOUBLE PRECISION NOT NULL,
                  PRIMARY KEY (user_id, flag_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                "ALTER TABLE profiles ADD COLUMN notifications TEXT NOT NULL DEFAULT '{}'",
                "CREATE INDEX review_flags_by_time ON review_flags (created_at)",
            ]
        ),
        Migration(
            version: 5, name: "create_rate_limits",
            sqlite: [
                """
                CREATE TABLE rate_limits (
                  limit_key TEXT NOT NULL,
                  window_start INTEGER NOT NULL,
                  count INTEGER NOT NULL,
                  PRIMARY KEY (limit_key, window_start)
                )
                """
            ],
            postgres: [
                """
                CREATE TABLE rate_limits (
                  limit_key TEXT NOT NULL,
                  window_start BIGINT NOT NULL,
                  count BIGINT NOT NULL,
                  PRIMARY KEY (limit_key, window_start)
                )
                """
            ]
        ),
        Migration(
            version: 6, name: "create_notification_wakes_and_inbox",
            sqlite: [
                """
                CREATE TABLE notification_wakes (
                  user_id TEXT NOT NULL,
                  next_at REAL,
                  checked_until REAL NOT NULL,
                  claimed_until REAL,
                  touched INTEGER NOT NULL,
                  PRIMARY KEY (user_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE notifications (
                  user_id TEXT NOT NULL,
                  notification_key TEXT NOT NULL,
                  kind TEXT NOT NULL,
                  title TEXT NOT NULL,
                  body TEXT NOT NULL,
                  url TEXT NOT NULL,
                  day TEXT NOT NULL,
                  habit TEXT,
                  meant_at REAL NOT NULL,
                  expires_at REAL NOT NULL,
                  created_at REAL NOT NULL,
                  read_at REAL,
                  PRIMARY KEY (user_id, notification_key),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                "CREATE INDEX notification_wakes_due ON notification_wakes (next_at)",
                "CREATE INDEX notifications_by_time ON notifications (user_id, created_at)",
            ],
            postgres: [
                """
                CREATE TABLE notification_wakes (
                  user_id TEXT NOT NULL,
                  next_at DOUBLE PRECISION,
                  checked_until DOUBLE PRECISION NOT NULL,
                  claimed_until DOUBLE PRECISION,
                  touched BIGINT NOT NULL,
                  PRIMARY KEY (user_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE notifications (
                  user_id TEXT NOT NULL,
                  notification_key TEXT NOT NULL,
                  kind TEXT NOT NULL,
                  title TEXT NOT NULL,
                  body TEXT NOT NULL,
                  url TEXT NOT NULL,
                  day TEXT NOT NULL,
                  habit TEXT,
                  meant_at DOUBLE PRECISION NOT NULL,
                  expires_at DOUBLE PRECISION NOT NULL,
                  created_at DOUBLE PRECISION NOT NULL,
                  read_at DOUBLE PRECISION,
                  PRIMARY KEY (user_id, notification_key),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                "CREATE INDEX notification_wakes_due ON notification_wakes (next_at)",
                "CREATE INDEX notifications_by_time ON notifications (user_id, created_at)",
            ]
        ),
        Migration(
            version: 7, name: "create_push_targets_webhooks_and_deliveries",
            sqlite: [
                """
                CREATE TABLE push_targets (
                  user_id TEXT NOT NULL,
                  target_id TEXT NOT NULL,
                  channel TEXT NOT NULL,
                  address TEXT NOT NULL,
                  p256dh TEXT,
                  auth TEXT,
                  environment TEXT,
                  created_at REAL NOT NULL,
                  PRIMARY KEY (user_id, target_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE webhooks (
                  webhook_id TEXT NOT NULL,
                  url TEXT NOT NULL,
                  secret TEXT NOT NULL,
                  kinds TEXT,
                  created_at REAL NOT NULL,
                  disabled_at REAL,
                  consecutive_failures INTEGER NOT NULL,
                  last_error TEXT,
                  last_success_at REAL,
                  last_failure_at REAL,
                  PRIMARY KEY (webhook_id)
                )
                """,
                """
                CREATE TABLE deliveries (
                  user_id TEXT NOT NULL,
                  notification_key TEXT NOT NULL,
                  channel TEXT NOT NULL,
                  target_id TEXT NOT NULL,
                  due_at REAL NOT NULL,
                  attempts INTEGER NOT NULL,
                  state TEXT NOT NULL,
                  claimed_until REAL,
                  outcome TEXT,
                  created_at REAL NOT NULL,
                  finished_at REAL,
                  PRIMARY KEY (user_id, notification_key, channel, target_id),
                  FOREIGN KEY (user_id, notification_key) REFERENCES notifications (user_id, notification_key)
                    ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE server_settings (
                  name TEXT NOT NULL,
                  value TEXT NOT NULL,
                  PRIMARY KEY (name)
                )
                """,
                "CREATE INDEX push_targets_by_target ON push_targets (target_id)",
                "CREATE INDEX deliveries_due ON deliveries (due_at) WHERE state = 'pending'",
                "CREATE INDEX deliveries_finished ON deliveries (finished_at) WHERE state <> 'pending'",
            ],
            postgres: [
                """
                CREATE TABLE push_targets (
                  user_id TEXT NOT NULL,
                  target_id TEXT NOT NULL,
                  channel TEXT NOT NULL,
                  address TEXT NOT NULL,
                  p256dh TEXT,
                  auth TEXT,
                  environment TEXT,
                  created_at DOUBLE PRECISION NOT NULL,
                  PRIMARY KEY (user_id, target_id),
                  FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE webhooks (
                  webhook_id TEXT NOT NULL,
                  url TEXT NOT NULL,
                  secret TEXT NOT NULL,
                  kinds TEXT,
                  created_at DOUBLE PRECISION NOT NULL,
                  disabled_at DOUBLE PRECISION,
                  consecutive_failures BIGINT NOT NULL,
                  last_error TEXT,
                  last_success_at DOUBLE PRECISION,
                  last_failure_at DOUBLE PRECISION,
                  PRIMARY KEY (webhook_id)
                )
                """,
                """
                CREATE TABLE deliveries (
                  user_id TEXT NOT NULL,
                  notification_key TEXT NOT NULL,
                  channel TEXT NOT NULL,
                  target_id TEXT NOT NULL,
                  due_at DOUBLE PRECISION NOT NULL,
                  attempts BIGINT NOT NULL,
                  state TEXT NOT NULL,
                  claimed_until DOUBLE PRECISION,
                  outcome TEXT,
                  created_at DOUBLE PRECISION NOT NULL,
                  finished_at DOUBLE PRECISION,
                  PRIMARY KEY (user_id, notification_key, channel, target_id),
                  FOREIGN KEY (user_id, notification_key) REFERENCES notifications (user_id, notification_key)
                    ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE server_settings (
                  name TEXT NOT NULL,
                  value TEXT NOT NULL,
                  PRIMARY KEY (name)
                )
                """,
                "CREATE INDEX push_targets_by_target ON push_targets (target_id)",
                "CREATE INDEX deliveries_due ON deliveries (due_at) WHERE state = 'pending'",
                "CREATE INDEX deliveries_finished ON deliveries (finished_at) WHERE state <> 'pending'",
            ]
        ),
        Migration(
            version: 8, name: "social",
            sqlite: socialMigration(.sqlite),
            postgres: socialMigration(.postgres)
        ),
        Migration(
            version: 9, name: "profile_language",
            sqlite: ["ALTER TABLE profiles ADD COLUMN language TEXT"],
            postgres: ["ALTER TABLE profiles ADD COLUMN language TEXT"]
        ),
        // A webhook's last error once quoted the first 500 bytes of its receiver's answer,
        // which echoed whatever an internal address answered to an operator; it is now a
        // status ("HTTP 500", "timed out"). Errors recorded before are dropped rather than
        // kept as quotes: the failure count and time stay.
        Migration(
            version: 10, name: "webhook_errors_without_answers",
            sqlite: ["UPDATE webhooks SET last_error = NULL WHERE last_error IS NOT NULL"],
            postgres: ["UPDATE webhooks SET last_error = NULL WHERE last_error IS NOT NULL"]
        ),
    ]

    /// Version 8: invitations, friends, blocks, sharing, posts, feeds, reactions and
    /// subjects' families; a review flag can be cleared. Written out here, not derived from
    /// the current table specs, so that the migration stays what it was when it shipped.
    private static func socialMigration(_ dialect: SQLDialect) -> [String] {
        let real = dialect.type(of: .real)
        let integer = dialect.type(of: .integer)
        let cascade = "FOREIGN KEY (user_id) REFERENCES accounts (user_id) ON DELETE CASCADE"
        return [
            "ALTER TABLE review_flags ADD COLUMN cleared_at \(real)",
            """
            CREATE TABLE invitations (
              code TEXT NOT NULL,
              user_id TEXT NOT NULL,
              kind TEXT NOT NULL,
              subject_owner TEXT,
              subject_id TEXT,
              role TEXT,
              created_at \(real) NOT NULL,
              expires_at \(real) NOT NULL,
              revoked_at \(real),
              answer TEXT,
              answered_by TEXT,
              answered_at \(real),
              PRIMARY KEY (code),
              \(cascade)
            )
            """,
            """
            CREATE TABLE friendships (
              user_id TEXT NOT NULL,
              friend_id TEXT NOT NULL,
              since \(real) NOT NULL,
              PRIMARY KEY (user_id, friend_id),
              \(cascade)
            )
            """,
            """
            CREATE TABLE blocks (
              user_id TEXT NOT NULL,
              blocked_id TEXT NOT NULL,
              created_at \(real) NOT NULL,
              PRIMARY KEY (user_id, blocked_id),
              \(cascade)
            )
            """,
            """
            CREATE TABLE sharing (
              user_id TEXT NOT NULL,
              scope TEXT NOT NULL,
              item_id TEXT NOT NULL,
              PRIMARY KEY (user_id, scope, item_id),
              \(cascade)
            )
            """,
            """
            CREATE TABLE posts (
              user_id TEXT NOT NULL,
              post_id TEXT NOT NULL,
              unlock_id TEXT NOT NULL,
              created_at \(real) NOT NULL,
              held \(integer) NOT NULL,
              body TEXT NOT NULL,
              PRIMARY KEY (user_id, post_id),
              \(cascade)
            )
            """,
            """
            CREATE TABLE feed_entries (
              user_id TEXT NOT NULL,
              author_id TEXT NOT NULL,
              post_id TEXT NOT NULL,
              added_at \(real) NOT NULL,
              body TEXT NOT NULL,
              PRIMARY KEY (user_id, author_id, post_id),
              \(cascade)
            )
            """,
            """
            CREATE TABLE reactions (
              user_id TEXT NOT NULL,
              post_id TEXT NOT NULL,
              reactor_id TEXT NOT NULL,
              reaction TEXT NOT NULL,
              created_at \(real) NOT NULL,
              PRIMARY KEY (user_id, post_id, reactor_id),
              FOREIGN KEY (user_id, post_id) REFERENCES posts (user_id, post_id) ON DELETE CASCADE
            )
            """,
            """
            CREATE TABLE subject_members (
              user_id TEXT NOT NULL,
              subject_id TEXT NOT NULL,
              member_id TEXT NOT NULL,
              role TEXT NOT NULL,
              since \(real) NOT NULL,
              PRIMARY KEY (user_id, subject_id, member_id),
              \(cascade)
            )
            """,
            """
            CREATE TABLE memberships (
              user_id TEXT NOT NULL,
              owner_id TEXT NOT NULL,
              subject_id TEXT NOT NULL,
              role TEXT NOT NULL,
              since \(real) NOT NULL,
              PRIMARY KEY (user_id, owner_id, subject_id),
              \(cascade)
            )
            """,
            "CREATE INDEX invitations_by_user ON invitations (user_id, created_at)",
            "CREATE INDEX feed_by_time ON feed_entries (user_id, added_at, author_id, post_id)",
            "CREATE INDEX posts_by_time ON posts (user_id, created_at)",
            "CREATE INDEX review_flags_open ON review_flags (user_id) WHERE cleared_at IS NULL",
        ]
    }
}
