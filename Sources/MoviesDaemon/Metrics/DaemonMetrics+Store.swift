import MoviesData
import MoviesDomain
import Varlink

/// The families of the memory of answers, the cache database, the local index and the storage's health.
extension DaemonMetrics {
    static let storeFamilies: [DaemonMetricFamily] = [
        .single("memory_entries", .gauge, "Cached entries held in memory ([Cache] MemoryMaxBytes=), answered without reading the database") { reading in
            reading.memory.map { .unsigned(UInt64($0.entries)) }
        },
        .single("memory_bytes", .gauge, "Bytes the entries in memory take") { reading in reading.memory.map { .unsigned(UInt64($0.bytes)) } },
        .single("memory_budget_bytes", .gauge, "The memory's byte budget ([Cache] MemoryMaxBytes=)") { reading in
            reading.memory.map { .unsigned(UInt64($0.byteBudget)) }
        },
        .labelled("memory_lookups_total", .counter, "Lookups of a cached entry in memory, by result: hit or miss (then the database is read)") { reading in
            guard let memory = reading.memory else { return [] }
            return [(fields: [("result", "hit")], value: .unsigned(memory.hits)), (fields: [("result", "miss")], value: .unsigned(memory.misses))]
        },
        .single("memory_evictions_total", .counter, "Entries let go from memory, least recently used first, to stay within its budget") { reading in
            reading.memory.map { .unsigned($0.evictions) }
        },
        .single("cache_entries", .gauge, "Entries in the cache database") { reading in reading.cache.map { .unsigned(UInt64($0.entries)) } },
        .single("cache_bytes", .gauge, "Bytes the cache database's entries count against its budget") { reading in
            reading.cache.map { .unsigned(UInt64(max(0, $0.bytes))) }
        },
        .single("cache_budget_bytes", .gauge, "The cache's byte budget ([Cache] MaxBytes=)") { reading in
            reading.cache.map { .unsigned(UInt64(max(0, $0.byteBudget))) }
        },
        .single("cache_pinned_entries", .gauge, "Cache entries pinned by watchlists (never evicted)") { reading in
            reading.cache.map { .unsigned(UInt64($0.pinnedEntries)) }
        },
        .single("cache_pinned_bytes", .gauge, "Bytes of the pinned cache entries") { reading in
            reading.cache.map { .unsigned(UInt64(max(0, $0.pinnedBytes ?? 0))) }
        },
        .single("cache_stale_entries", .gauge, "Cache entries past their fresh lifetime (still served offline)") { reading in
            reading.cache.map { .unsigned(UInt64($0.staleEntries)) }
        },
        .single("cache_evictions_total", .counter, "Entries deleted from the cache database, least recently used first, to stay within [Cache] MaxBytes=") { reading in
            .unsigned(reading.cacheEvictions)
        },
        .single("index_rows", .gauge, "Movies in the local search index (one row per movie and language)") { reading in
            reading.index.map { .unsigned(UInt64($0.rows)) }
        },
        .single("index_queued", .gauge, "Stored responses waiting to be indexed") { reading in reading.index.map { .unsigned(UInt64($0.queued)) } },
        .labelled(
            "storage_faults_total", .counter,
            "Storage operations that failed, by database (cache, state) and fault (full, locked, corrupt, unavailable)"
        ) { reading in
            StorageHealthMonitor.Database.allCases.flatMap { database in
                StorageFault.allCases.map { fault in
                    (fields: [("database", database.rawValue), ("fault", fault.rawValue)], value: MetricValue.unsigned(reading.storageFaults[database]?[fault] ?? 0))
                }
            }
        },
        .labelled("storage_state", .string, "Each database's state: ok, full, locked, corrupt or unavailable") { reading in
            StorageHealthMonitor.Database.allCases.map { database in
                (fields: [("database", database.rawValue)], value: MetricValue.string((reading.storageStates[database] ?? .ok).rawValue))
            }
        },
    ]
}
