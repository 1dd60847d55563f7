#if canImport(Glibc)
    import Glibc
#endif

/// Bytes of heap in use, from glibc's `mallinfo2()`.
///
/// Swift's `Glibc` module does not import `<malloc.h>`, so `mallinfo2` is looked up with
/// `dlsym` and called through a C function pointer. `struct mallinfo2` (ten `size_t`s, 80
/// bytes) is returned in memory: on x86-64 System V the caller passes the result's address
/// as a hidden first argument (`%rdi`) and gets it back in `%rax`, which is exactly the C
/// signature `void *(void *)`. Other platforms report `nil`.
enum Heap {
    /// One reading of `mallinfo2()`.
    struct Snapshot {
        /// Bytes in chunks handed out by the arenas (`uordblks`).
        var arenaInUse: Int
        /// Bytes in chunks served directly by `mmap` (`hblkhd`): large arrays land here.
        var mmapped: Int
        /// Everything in use.
        var total: Int { arenaInUse + mmapped }
    }

    #if os(Linux) && arch(x86_64)
        private typealias MallInfo2 = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?

        /// The address of `mallinfo2`, or 0 (kept as an integer, which is `Sendable`).
        private static let address: Int = {
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "mallinfo2") else { return 0 }
            return Int(bitPattern: symbol)
        }()
    #endif

    /// The current heap figures, or `nil` where `mallinfo2` is unavailable.
    static func snapshot() -> Snapshot? {
        #if os(Linux) && arch(x86_64)
            guard let symbol = UnsafeRawPointer(bitPattern: address) else { return nil }
            let function = unsafeBitCast(symbol, to: MallInfo2.self)
            // arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost
            var info: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &info) { _ = function($0.baseAddress!) }
            return Snapshot(arenaInUse: info.7, mmapped: info.4)
        #else
            return nil
        #endif
    }
}
