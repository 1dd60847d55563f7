import Foundation
import MomentumCore

extension AccountArchive {
    /// The archive's files, each with its path inside the archive: `account.jsonl`,
    /// `memories.jsonl` and every photo at the path its memory names.
    ///
    /// - Throws: ``StoreError/Code/invalidInput`` when a line cannot be encoded.
    public func files() throws(StoreError) -> [(path: String, bytes: Data)] {
        var lines: [String] = []
        var head = ArchiveLine(type: "account")
        head.id = account.id
        head.email = account.email
        head.passwordHash = account.passwordHash
        head.createdAt = account.createdAt
        lines.append(try StoreJSON.encode(head))
        var profileLine = ArchiveLine(type: "profile")
        profileLine.profile = profile
        lines.append(try StoreJSON.encode(profileLine))
        for stored in events {
            var line = ArchiveLine(type: "event")
            line.seq = stored.seq
            line.receivedAt = stored.receivedAt
            line.device = stored.device
            line.event = stored.event
            lines.append(try StoreJSON.encode(line))
        }
        for photo in photos {
            var line = ArchiveLine(type: "photo")
            line.path = photo.path
            line.contentType = photo.contentType
            line.createdAt = photo.createdAt
            lines.append(try StoreJSON.encode(line))
        }
        if let celebrations {
            var line = ArchiveLine(type: "celebrations")
            line.planner = celebrations
            lines.append(try StoreJSON.encode(line))
        }
        let memoryText = memories.map { $0.jsonLine + "\n" }.joined()
        return [
            (Self.accountFile, Data((lines.joined(separator: "\n") + "\n").utf8)),
            (Self.memoriesFile, Data(memoryText.utf8)),
        ] + photos.map { ($0.path, Data($0.bytes)) }
    }

    /// Writes the archive into a directory, creating it if needed.
    ///
    /// - Parameter directory: The directory; existing files of the same names are replaced.
    /// - Throws: ``StoreError/Code/invalidInput`` when a file cannot be written.
    public func write(to directory: URL) throws(StoreError) {
        let files = try files()
        do {
            let manager = FileManager.default
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            for (path, bytes) in files {
                let url = directory.appending(path: path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try bytes.write(to: url, options: .atomic)
            }
        } catch {
            throw StoreError(
                .invalidInput, "cannot write the archive to \(directory.path): \(error.localizedDescription)")
        }
    }

    /// Reads and checks an archive directory.
    ///
    /// Every line is checked before anything is returned: its JSON, its type, the order of
    /// the log (positions 1, 2, 3, …), that the events replay (each valid, none refused),
    /// that the profile is valid, and that every photo file exists and every memory's photo
    /// was exported. All problems are reported together, each with its file and line.
    ///
    /// - Parameters:
    ///   - directory: The directory `momentum export` wrote.
    ///   - packs: The packs the profile may name (the bundled ones by default).
    /// - Returns: The archive.
    /// - Throws: ``StoreError/Code/invalidArchive`` listing every problem.
    public static func read(from directory: URL, packs: PackLibrary = .bundled) throws(StoreError) -> AccountArchive {
        try read(origin: directory.path, packs: packs) { path in
            do {
                return .success(try Data(contentsOf: directory.appending(path: path)))
            } catch {
                return .failure(FileProblem(reason: error.localizedDescription))
            }
        }
    }

    /// Reads and checks an archive from its files, whatever holds them (a directory, a tar
    /// file); see ``read(from:packs:)`` for the checks.
    ///
    /// - Parameters:
    ///   - origin: Where the archive comes from, for messages.
    ///   - packs: The packs the profile may name.
    ///   - file: The bytes of the file at a path inside the archive, or why it cannot be read.
    static func read(
        origin: String, packs: PackLibrary = .bundled, file: (String) -> Result<Data, FileProblem>
    ) throws(StoreError) -> AccountArchive {
        var problems: [StoreError.Problem] = []
        func problem(_ file: String, _ line: Int?, _ reason: String) {
            if problems.count < 100 { problems.append(StoreError.Problem(file: file, line: line, reason: reason)) }
        }
        func load(_ name: String) -> Data? {
            switch file(name) {
            case .success(let data): return data
            case .failure(let failure):
                problem(name, nil, "cannot be read: \(failure.reason)")
                return nil
            }
        }
        let accountData = load(accountFile)
        let memoriesData = load(memoriesFile)
        guard let accountData, let memoriesData else {
            throw StoreError(.invalidArchive, "\(origin) is not a Momentum account archive", problems: problems)
        }

        var account: Account?
        var profile: Profile?
        var profileLine = 0
        var events: [StoredEvent] = []
        var eventLines: [Int] = []
        var photos: [StoredPhoto] = []
        var celebrations: CelebrationPlanner?
        var unreadable = 0
        let decoder = MomentumJSON.decoder()
        let text = String(decoding: accountData, as: UTF8.self)
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            if raw.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let line: ArchiveLine
            do {
                line = try decoder.decode(ArchiveLine.self, from: Data(raw.utf8))
            } catch {
                problem(accountFile, number, "not a valid archive line: \(Self.describe(error))")
                unreadable += 1
                continue
            }
            switch line.type {
            case "account":
                guard account == nil else {
                    problem(accountFile, number, "a second account line")
                    continue
                }
                // An account without an email or a password (an app's backend's user, an
                // identity provider's) leaves those fields out.
                guard let id = line.id, let created = line.createdAt else {
                    problem(accountFile, number, "an account line needs id and created_at")
                    continue
                }
                do throws(StoreError) {
                    try Validate.userID(id)
                    if let email = line.email { try Validate.email(email) }
                } catch {
                    problem(accountFile, number, error.message)
                }
                account = Account(id: id, email: line.email, passwordHash: line.passwordHash, createdAt: created)
            case "profile":
                guard let value = line.profile else {
                    problem(accountFile, number, "a profile line needs a profile")
                    continue
                }
                do throws(StoreError) { try value.validate(in: packs) } catch {
                    problem(accountFile, number, error.message)
                }
                if profile != nil { problem(accountFile, number, "a second profile line") }
                profile = value
                profileLine = number
            case "event":
                guard let event = line.event, let seq = line.seq, let received = line.receivedAt else {
                    problem(accountFile, number, "an event line needs seq, received_at and event")
                    continue
                }
                // Positions count up by one; after a line that could not be read, any higher
                // position is accepted so that one bad line is reported once.
                let previous = events.last?.seq ?? 0
                if seq <= previous || (seq != previous + 1 && unreadable == 0) {
                    problem(accountFile, number, "event position \(seq) where \(previous + 1) was expected")
                }
                unreadable = 0
                events.append(StoredEvent(seq: seq, event: event, receivedAt: received, device: line.device))
                eventLines.append(number)
            case "photo":
                guard let path = line.path, let type = line.contentType, let created = line.createdAt else {
                    problem(accountFile, number, "a photo line needs path, content_type and created_at")
                    continue
                }
                do throws(MomentumError) {
                    try MemoryPhoto.validateStored(path)
                    switch file(path) {
                    case .success(let bytes):
                        photos.append(
                            StoredPhoto(path: path, contentType: type, bytes: [UInt8](bytes), createdAt: created))
                    case .failure(let failure):
                        problem(accountFile, number, "photo file '\(path)' cannot be read: \(failure.reason)")
                    }
                } catch {
                    problem(accountFile, number, error.message)
                }
            case "celebrations":
                guard let planner = line.planner else {
                    problem(accountFile, number, "a celebrations line needs a planner")
                    continue
                }
                celebrations = planner
            default:
                problem(accountFile, number, "unknown line type '\(line.type)'")
            }
        }
        if account == nil { problem(accountFile, nil, "no account line") }
        if profile == nil { problem(accountFile, nil, "no profile line") }

        // The log must replay: every event valid and accepted, as when it first arrived.
        if let profile, let pack = try? profile.rulePack(in: packs) {
            var engine = MomentumUser(pack: pack, dayStartHour: profile.dayStartHour)
            for (stored, number) in zip(events, eventLines) {
                do throws(MomentumError) {
                    let (result, _) = try engine.append(stored.event, detectedAt: stored.receivedAt)
                    switch result {
                    case .applied: break
                    case .duplicate: problem(accountFile, number, "event '\(stored.event.id)' appears twice")
                    case .rejected(let error): problem(accountFile, number, "event refused: \(error.message)")
                    }
                } catch {
                    problem(accountFile, number, "invalid event: \(error.description)")
                }
            }
        } else if profile != nil {
            problem(accountFile, profileLine, "unknown rule pack")
        }

        var memories: [Memory] = []
        var memoryLines: [String: Int] = [:]
        let photoPaths = Set(photos.map(\.path))
        let memoryText = String(decoding: memoriesData, as: UTF8.self)
        for (offset, raw) in memoryText.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            if raw.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            do throws(EventLogError) {
                let memory = try Memory(jsonLine: raw)
                for path in [memory.photo?.original, memory.photo?.shareCopy].compactMap({ $0 })
                where !photoPaths.contains(path) {
                    problem(memoriesFile, number, "photo '\(path)' is not in the archive")
                }
                if memoryLines[memory.id] != nil {
                    problem(memoriesFile, number, "memory '\(memory.id)' appears twice")
                }
                memoryLines[memory.id] = number
                memories.append(memory)
            } catch {
                problem(memoriesFile, number, error.errors.map(\.message).joined(separator: "; "))
            }
        }

        guard problems.isEmpty, let account, let profile else {
            throw StoreError(
                .invalidArchive,
                "the archive in \(origin) has \(problems.count) problem(s); nothing was imported",
                problems: problems)
        }
        var archive = AccountArchive(
            account: account, profile: profile, events: events, memories: memories, photos: photos,
            celebrations: celebrations)
        archive.memoryLines = memoryLines
        return archive
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.keyNotFound(let key, _): "missing field '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "field '\(context.codingPath.map(\.stringValue).joined(separator: "."))': \(context.debugDescription)"
        default: "\(error)"
        }
    }
}

/// Why a file of an archive cannot be read.
struct FileProblem: Error {
    var reason: String
}
