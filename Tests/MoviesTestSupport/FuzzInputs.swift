import Foundation

/// The inputs scripts/fuzz keeps for a target (Fuzz/TARGET/corpus: the seeds; Fuzz/TARGET/regressions:
/// every input that ever failed), which the test suite replays without instrumentation.
public enum FuzzInputs {
    /// The seeds and regression inputs of `target` (by name, with their bytes), sorted by name.
    public static func all(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
        var inputs: [(name: String, bytes: [UInt8])] = []
        for kind in ["corpus", "regressions"] {
            let directory = Fixtures.packageRoot.appendingPathComponent("Fuzz/\(target)/\(kind)")
            // No regressions yet is an empty directory git does not keep.
            guard FileManager.default.fileExists(atPath: directory.path) else { continue }
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() where !name.hasPrefix(".") {
                let data = try Data(contentsOf: directory.appendingPathComponent(name))
                inputs.append(("\(kind)/\(name)", Array(data)))
            }
        }
        return inputs
    }
}
