import Glibc

extension DaemonConfiguration {
    /// The configuration for `arguments`: defaults, then the configuration file, then its drop-ins,
    /// then the command line.
    ///
    /// The file is `--config FILE` when given (it must exist), else the default one from
    /// ``DaemonPaths/defaultConfigurationPath(environment:uid:homeDirectory:)`` if it exists. Its drop-ins,
    /// `FILE.d/*.conf` (``ConfigurationDropIns``), are read after it in lexical order whether or not
    /// the default file exists, so an administrator's changes can live beside a packaged file that
    /// upgrades replace.
    /// - Throws: ``ConfigurationError`` naming the file (main or drop-in) and line at fault.
    public static func load(arguments: DaemonArguments, environment: [String: String], uid: UInt32) throws(ConfigurationError) -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        let path: String
        if let given = arguments.configurationPath {
            path = given
            configuration = try ConfigurationFile.load(path: path).applied(to: configuration)
        } else {
            path = DaemonPaths.defaultConfigurationPath(environment: environment, uid: uid)
            if access(path, F_OK) == 0 {
                configuration = try ConfigurationFile.load(path: path).applied(to: configuration)
            }
        }
        for dropIn in try ConfigurationDropIns(configurationPath: path).paths {
            configuration = try ConfigurationFile.load(path: dropIn).applied(to: configuration)
        }
        return arguments.applied(to: configuration)
    }
}
