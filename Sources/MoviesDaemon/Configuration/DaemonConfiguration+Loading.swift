import Glibc

extension DaemonConfiguration {
    /// The configuration for `arguments`: defaults, then the configuration file, then the command line.
    ///
    /// The file is `--config FILE` when given (it must exist), else the default one from
    /// ``DaemonPaths/defaultConfigurationPath(environment:uid:homeDirectory:)`` if it exists.
    /// - Throws: ``ConfigurationError`` naming the file and line at fault.
    public static func load(arguments: DaemonArguments, environment: [String: String], uid: UInt32) throws(ConfigurationError) -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        if let path = arguments.configurationPath {
            configuration = try ConfigurationFile.load(path: path).applied(to: configuration)
        } else {
            let path = DaemonPaths.defaultConfigurationPath(environment: environment, uid: uid)
            if access(path, F_OK) == 0 {
                configuration = try ConfigurationFile.load(path: path).applied(to: configuration)
            }
        }
        return arguments.applied(to: configuration)
    }
}
