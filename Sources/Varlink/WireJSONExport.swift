// Varlink messages are JSON: whoever uses Varlink uses `JSONValue` too.
@_exported import WireJSON
