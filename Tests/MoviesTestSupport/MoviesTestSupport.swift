// Fakes for tests (placeholder)
