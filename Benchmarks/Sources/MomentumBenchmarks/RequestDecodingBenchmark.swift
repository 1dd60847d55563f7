import Foundation
import MomentumAPI
import MomentumCore
@_spi(Benchmarks) import MomentumServer
import MomentumTestSupport

/// Benchmark 10: decoding request bodies the way the server does — `JSONDecoder` into the
/// typed request, which refuses fields it does not know, then the duplicate-key scan —
/// against Foundation's `JSONDecoder` alone decoding the same bytes into the same type
/// (the baseline), measured in the same run. Both give the same value; the benchmark
/// checks that too.
///
/// The figure is what refusing repeated keys costs on the bodies of the hottest routes.
enum RequestDecodingBenchmark {
    static func run(_ settings: Settings) -> [ResultRow] {
        let log = Fixtures.log(user: 11)
        let events = Array(log.prefix(settings.quick ? 50 : 200))
        let route = EventRequest.Route(type: "completion", path: ["habit": "read"])
        let checkIn = Data(#"{"eventId": "c_2f6d1b0c9a8e4d21", "note": "chapter 3", "value": 2}"#.utf8)
        let push: Data
        do {
            push = Data(#"{"events": "#.utf8) + (try MomentumJSON.encode(events)) + Data("}".utf8)
        } catch {
            print("  the push body could not be written: \(error)")
            return []
        }
        let register = Data(
            #"{"email": "ada@example.com", "password": "correct horse", "displayName": "Ada", "timeZone": "Europe/Berlin", "deviceName": "phone"}"#
                .utf8)
        let rounds = settings.quick ? 20 : 2_000
        var rows: [ResultRow] = []
        func compare<T: Decodable & Equatable>(
            _ name: String, _ type: T.Type, _ body: Data, userInfo: [CodingUserInfoKey: any Sendable] = [:],
            repeats: Int
        ) {
            do {
                let foundation = MomentumJSON.decoder()
                foundation.userInfo = userInfo
                let server = try RequestDecoding.decode(type, from: body, userInfo: userInfo)
                guard try foundation.decode(type, from: body) == server else {
                    print("  \(name): the decoders disagree")
                    rows.append(ResultRow(benchmark: "requests", metric: name, measured: "decoders disagree"))
                    return
                }
                var checksum: UInt64 = 0
                let baseline = try Rounds.measure(count: rounds, checksum: &checksum) {
                    for _ in 0..<repeats { _ = try foundation.decode(type, from: body) }
                    return UInt64(repeats)
                }
                let measured = try Rounds.measure(count: rounds, checksum: &checksum) {
                    for _ in 0..<repeats { _ = try RequestDecoding.decode(type, from: body, userInfo: userInfo) }
                    return UInt64(repeats)
                }
                let each = measured.median / Double(repeats)
                let base = baseline.median / Double(repeats)
                print(
                    "  \(name): \(Format.bytes(Double(body.count))), checksum \(checksum); "
                        + "JSONDecoder \(Format.duration(base)), server \(Format.duration(each))")
                rows.append(
                    ResultRow(
                        benchmark: "requests", metric: "decode \(name) (\(Format.bytes(Double(body.count))))",
                        measured: Format.duration(each), baseline: Format.duration(base),
                        ratio: Format.ratio(each / base) + " of JSONDecoder's time"))
            } catch {
                print("  \(name) failed: \(error)")
            }
        }
        compare("a check-in", EventRequest.self, checkIn, userInfo: [EventRequest.routeKey: route], repeats: 20)
        compare("a registration", Components.Schemas.RegisterRequest.self, register, repeats: 20)
        compare("a push of \(events.count) events", Components.Schemas.PushRequest.self, push, repeats: 1)
        return rows
    }
}
