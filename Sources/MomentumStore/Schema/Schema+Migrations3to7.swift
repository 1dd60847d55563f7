extension Schema {
    /// Versions 3 to 7 of ``migrations``: idempotency keys, photos, notifications, review
    /// flags, rate limits, wakes, the inbox, push targets, webhooks and deliveries.
    static let migrations3to7: [Migration] = [
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
    ]
}
