#if canImport(Security)
    import Foundation
    import Security

    /// Secrets in the Keychain, as generic passwords: the store of Apple platforms.
    ///
    /// Each secret is one item of class `kSecClassGenericPassword` whose service is the
    /// server and whose account is the kind and the email (``TokenKey/service``,
    /// ``TokenKey/account``). Items are `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`:
    /// readable by a background sync once the user has unlocked the device after a restart,
    /// and neither in backups nor moved to another device (a restored phone signs in again).
    ///
    /// This file is compiled only where `Security` exists; Momentum's CI (Linux) never
    /// compiles it.
    public struct KeychainTokenStore: TokenStore {
        /// The Keychain access group shared with the app's extensions, if any.
        public var accessGroup: String?

        /// A store in the app's own Keychain, or in `accessGroup`'s.
        public init(accessGroup: String? = nil) {
            self.accessGroup = accessGroup
        }

        private func query(_ key: TokenKey) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: key.service,
                kSecAttrAccount as String: key.account,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        /// The secret kept for `key`, or `nil` when there is none.
        public func read(_ key: TokenKey) throws -> String? {
            var query = query(key)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else { throw Self.failure(status, "read") }
            return String(decoding: data, as: UTF8.self)
        }

        /// Keeps `secret` for `key`, replacing any earlier one.
        public func save(_ secret: String, for key: TokenKey) throws {
            let attributes: [String: Any] = [
                kSecValueData as String: Data(secret.utf8),
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            let status = SecItemUpdate(query(key) as CFDictionary, attributes as CFDictionary)
            if status == errSecSuccess { return }
            guard status == errSecItemNotFound else { throw Self.failure(status, "update") }
            let added = SecItemAdd(query(key).merging(attributes) { $1 } as CFDictionary, nil)
            guard added == errSecSuccess else { throw Self.failure(added, "add") }
        }

        /// Forgets the secret kept for `key`; forgetting a missing one is no error.
        public func delete(_ key: TokenKey) throws {
            let status = SecItemDelete(query(key) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.failure(status, "delete") }
        }

        private static func failure(_ status: OSStatus, _ operation: String) -> ClientError {
            let text = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "OSStatus \(status)"
            return ClientError.corruptDatabase("the Keychain refused to \(operation) a secret: \(text)")
        }
    }
#endif
