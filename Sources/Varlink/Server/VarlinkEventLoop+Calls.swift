import SystemSupport
/// Turning buffered input into calls, and handler replies into output.
extension VarlinkEventLoop {
    /// Starts whatever calls the connection's input allows; the connection is then settled
    /// (``settleServiced()``) with the others serviced in this turn of the loop.
    func service(_ connection: VarlinkConnection) {
        // A connection with many calls queued (a client pipelining) is serviced long: the replies
        // already made go out first.
        if connection.pendingInputBytes > Self.settleBeforeInputBytes {
            settleServiced()
            // Settling may have closed it (done, or its peer gone): nothing more to start.
            guard connections[connection.fd] === connection else { return }
        }
        if connection.peerGone { startCallsOfAPeerGone(connection) } else { startBufferedCalls(on: connection) }
        // The messages taken are decoded by now: a large buffer is let go while a call runs, not
        // kept until the client sends again (the input budget no longer counts it).
        connection.compactInput()
        account(connection)
        let now = MonotonicClock.now()
        if !connection.awaitsSettling {
            connection.awaitsSettling = true
            if serviced.isEmpty { firstServicedAt = now }
            serviced.append(connection)
        }
        // Bounded by count and by time: a connection's service may be long (a client pipelining
        // hundreds of calls), and the replies already made must not wait behind many of those.
        if serviced.count >= Self.settleBatch || now - firstServicedAt >= Self.settleDelayNanoseconds { settleServiced() }
    }

    /// Settles every connection serviced since the last time: writes its output, closes it when
    /// it is done or broken, and updates what the loop waits for on it.
    ///
    /// The replies of one turn of the loop go out together, after its calls, not one between
    /// every two calls: a client that waits on many connections (a thread in `epoll_wait`) is
    /// woken once for the batch, not once per reply, and a wake-up of a sleeping thread on
    /// another CPU is the most expensive thing a small reply costs. A batch is at most
    /// ``settleBatch`` connections and ends once ``settleDelayNanoseconds`` have passed since its
    /// first, so the first reply waits for at most that many connections' calls, or about that long.
    func settleServiced() {
        // Settling services no connection, so the list stays as it is until it is emptied (in
        // place: by then nothing else holds it).
        for connection in serviced {
            connection.awaitsSettling = false
            guard connections[connection.fd] === connection else { continue }
            settle(connection)
        }
        serviced.removeAll(keepingCapacity: true)
    }

    private func settle(_ connection: VarlinkConnection) {
        guard connection.flush() else {
            // Written to a peer that is gone: the oneway calls it sent whole still run.
            peerLeft(connection)
            startCallsOfAPeerGone(connection)
            if connection.activeCall == nil { close(connection) }
            return
        }
        // More queued than one reply beyond the high water (with room for the largest reply
        // queued): a client that does not read its stream.
        guard connection.pendingOutputBytes <= max(outputHardLimit, Self.outputHighWater + connection.largestQueuedMessage) else {
            close(connection)
            return
        }
        let finished = connection.closeWhenFlushed
            || (connection.activeCall == nil && (drainDeadline != nil || connection.inputClosed))
        if finished, connection.pendingOutputBytes == 0 {
            close(connection)
            return
        }
        updateInterest(connection)
    }

    /// A peer gone is no longer polled: what its socket still holds is read here, as much as the
    /// input may hold at a time, until a call runs or nothing is left. At most
    /// ``peerGoneReadRounds`` reads a service: a peer found gone by a failed write (it shut down
    /// its reading side) may still be sending, and the loop must get back to the others.
    private func startCallsOfAPeerGone(_ connection: VarlinkConnection) {
        var rounds = 0
        while true {
            startBufferedCalls(on: connection)
            connection.compactInput()
            guard connection.activeCall == nil, !connection.closeWhenFlushed, rounds < Self.peerGoneReadRounds else { return }
            rounds += 1
            // The input was taken as far as it goes (its limit may have kept the socket unread).
            let before = connection.pendingInputBytes
            _ = connection.readAvailable(into: &scratch) { inputLimit(of: connection) }
            guard connection.pendingInputBytes > before else { return }
        }
    }

    private func startBufferedCalls(on connection: VarlinkConnection) {
        while connection.activeCall == nil, !connection.closeWhenFlushed, drainDeadline == nil {
            if connection.pendingOutputBytes >= Self.outputHighWater {
                guard connection.flush(), connection.pendingOutputBytes < Self.outputHighWater else { return }
            }
            switch connection.nextMessage(maxBytes: configuration.maxMessageBytes) {
            case .incomplete:
                return
            case .oversize:
                connection.enqueue(VarlinkMessage.encodeError(.invalidParameter("message")))
                connection.closeWhenFlushed = true
                // Nothing more is read: its input no longer counts, nor holds the turn to grow.
                connection.discardInput()
                return
            case .message(let bytes):
                handleMessage(bytes, on: connection)
            }
        }
    }

    private func handleMessage(_ bytes: ArraySlice<UInt8>, on connection: VarlinkConnection) {
        let now = MonotonicClock.now()
        connection.lastActivity = now
        let decoded: VarlinkMessage.DecodedCall
        switch VarlinkMessage.decodeCall(bytes) {
        case .failure(let error):
            connection.enqueue(VarlinkMessage.encodeError(error))
            metrics.answeredOnLoop(slot: LoopMetrics.otherSlot, startedAt: now, final: true, fromMemory: false, failure: error.name)
            return
        case .success(let call):
            decoded = call
        }
        var call = decoded.call
        // Its client is gone: only a oneway call runs (the reply of any other would go nowhere).
        guard !connection.peerGone || call.oneway else { return }
        call.peer = connection.peer
        if call.isIn(interface: VarlinkServiceInterface.name) {
            let reply = decoded.upgrade ? .failure(.invalidParameter("upgrade"))
                : VarlinkServiceInterface.reply(to: call, configuration: configuration, handlers: handlers)
            let slot = VarlinkServiceInterface.serves(call.methodName) ? metrics.slot(servedMethod: call.method) : LoopMetrics.otherSlot
            answer(call, with: reply, on: connection, slot: slot, startedAt: now)
            return
        }
        guard let handler = handlers.handler(for: call) else {
            answer(call, with: .failure(.interfaceNotFound(call.interface)), on: connection, slot: LoopMetrics.otherSlot, startedAt: now)
            return
        }
        guard handler.declares(method: call.methodName) else {
            answer(call, with: .failure(.methodNotFound(call.method)), on: connection, slot: LoopMetrics.otherSlot, startedAt: now)
            return
        }
        let slot = metrics.slot(servedMethod: call.method)
        guard !decoded.upgrade else {
            answer(call, with: .failure(.invalidParameter("upgrade")), on: connection, slot: slot, startedAt: now)
            return
        }
        if let reply = handler.answerAtOnce(call) {
            guard reply.continues else {
                if !call.oneway { connection.enqueue(pieces: reply.pieces) }
                metrics.answeredOnLoop(slot: slot, startedAt: now, final: true, fromMemory: true)
                return
            }
            if call.more, !call.oneway {
                // Written before the call's task starts, so it never waits behind that work.
                connection.enqueue(pieces: reply.pieces)
                _ = connection.flush()
                call.firstReplySent = true
                metrics.answeredOnLoop(slot: slot, startedAt: now, final: false, fromMemory: true)
            }
        }
        start(call, handler: handler, on: connection, now: now, slot: slot)
    }

    /// Queues the reply of a call answered on the loop (none for a oneway call) and counts it in `slot`.
    private func answer(
        _ call: VarlinkCall, with reply: Result<[String: JSONValue], VarlinkError>, on connection: VarlinkConnection, slot: Int, startedAt: UInt64
    ) {
        var failure: String?
        if case .failure(let error) = reply { failure = error.name }
        defer { metrics.answeredOnLoop(slot: slot, startedAt: startedAt, final: true, fromMemory: false, failure: failure) }
        guard !call.oneway else { return }
        switch reply {
        case .success(let parameters): connection.enqueue(pieces: VarlinkMessage.encodeReplyPieces(parameters, continues: false))
        case .failure(let error): connection.enqueue(VarlinkMessage.encodeError(error))
        }
    }

    private func start(_ call: VarlinkCall, handler: any VarlinkInterfaceHandler, on connection: VarlinkConnection, now: UInt64, slot: Int) {
        let serial = connection.nextCallSerial
        connection.nextCallSerial += 1
        let fd = connection.fd
        let connectionID = connection.id
        let streams = call.more && !call.oneway
        let writer = VarlinkReplyWriter(isStreaming: streams) { [self] message in
            post(.reply(fd: fd, connection: connectionID, call: serial, message: message, isFinal: false))
        }
        let task = Task { [self] in
            let message: [[UInt8]]
            var failure: String?
            do throws(VarlinkError) {
                let parameters = try await handler.handle(call, replies: writer)
                message = VarlinkMessage.encodeReplyPieces(parameters, continues: false)
            } catch {
                message = [VarlinkMessage.encodeError(error)]
                failure = error.name
            }
            post(.reply(fd: fd, connection: connectionID, call: serial, message: message, isFinal: true, failure: failure))
        }
        let seconds = handler.deadlineSeconds(forMethod: call.methodName) ?? configuration.callDeadlineSeconds
        let deadline = now + MonotonicClock.timeout(seconds: seconds)
        connection.activeCall = .init(
            serial: serial, task: task, deadline: deadline, deadlineSeconds: seconds, sendsReply: !call.oneway, streams: streams,
            metricsSlot: slot, startedAt: now, firstReplyCounted: call.firstReplySent)
        nextSweep = min(nextSweep, deadline)
    }

    /// Queues a handler's reply if its call is still the connection's active one; a final one
    /// says the error it is (`failure`), if any.
    func deliverReply(fd: Int32, connectionID: UInt64, callSerial: UInt64, message: [[UInt8]], isFinal: Bool, failure: String? = nil) {
        guard let connection = connections[fd], connection.id == connectionID,
              let active = connection.activeCall, active.serial == callSerial else { return }
        if isFinal {
            if active.sendsReply { connection.enqueue(pieces: message) }
            metrics.ended(slot: active.metricsSlot, startedAt: active.startedAt, failure: failure, withFirstReply: !active.firstReplyCounted)
            finishCall(on: connection)
        } else if active.streams {
            connection.enqueue(pieces: message)
            if !active.firstReplyCounted {
                metrics.firstReply(slot: active.metricsSlot, startedAt: active.startedAt)
                connection.activeCall?.firstReplyCounted = true
            }
        }
        service(connection)
    }

    /// Ends the active call (its reply already queued) and restarts the idle clock.
    func finishCall(on connection: VarlinkConnection) {
        connection.activeCall = nil
        let now = MonotonicClock.now()
        connection.lastActivity = now
        nextSweep = min(nextSweep, now + MonotonicClock.timeout(seconds: configuration.idleTimeoutSeconds))
    }

    /// How many input bytes `connection` may buffer now: a message may grow past
    /// ``VarlinkConnection/queuedInputLimit`` only while all connections together stay within
    /// the input budget (so many clients each sending half of a huge message cannot take the
    /// server's memory; small calls always get through).
    func inputLimit(of connection: VarlinkConnection) -> Int {
        inputRoom(of: connection).limit
    }

    /// ``inputLimit(of:)``, and whether the spent budget is what holds the connection's message
    /// back (so that it waits for room: ``updateInterest(_:)``).
    ///
    /// Messages held back by a spent budget could each wait for another one to end, and none
    /// would: so one of them at a time, over all loops, grows anyway
    /// (``ConnectionCounter/claimGrowthPastBudget(_:now:)``: the first held back, until it is
    /// read whole or stops growing for a second). The server then holds at most the budget, one
    /// message of up to `maxMessageBytes`, and ``VarlinkConnection/queuedInputLimit`` a
    /// connection (the total is counted loosely: two loops may each see room at once).
    func inputRoom(of connection: VarlinkConnection) -> (limit: Int, heldByBudget: Bool) {
        let others = counter.bufferedInputBytes - connection.accountedInputBytes
        var mayGrow = others + connection.pendingInputBytes < configuration.inputBudgetBytes
        var heldByBudget = false
        // Only a message being read now takes the turn: not one behind the connection's own call
        // in flight, nor on a connection that is closing or has its replies piling up.
        if !mayGrow, connection.pendingInputBytes >= VarlinkConnection.queuedInputLimit, connection.activeCall == nil,
           !connection.closeWhenFlushed, !connection.inputClosed, connection.pendingOutputBytes < Self.outputHighWater,
           !connection.holdsCompleteMessage() {
            mayGrow = counter.claimGrowthPastBudget(connection.fd, now: MonotonicClock.now())
            if mayGrow, !connection.growsPastBudget { connection.turnProgressMark = connection.pendingInputBytes }
            connection.growsPastBudget = mayGrow
            heldByBudget = !mayGrow
        }
        return (connection.inputLimit(maxMessageBytes: configuration.maxMessageBytes, mayGrow: mayGrow), heldByBudget)
    }

    /// Brings the input budget's total up to date with what `connection` buffers now.
    func account(_ connection: VarlinkConnection) {
        counter.addBufferedInput(connection.pendingInputBytes - connection.accountedInputBytes)
        connection.accountedInputBytes = connection.pendingInputBytes
        guard connection.growsPastBudget else { return }
        // The turn to grow past the budget ends once the message is whole (or nothing is read
        // any more); while it grows by ``turnProgressBytes`` a second, the turn is kept.
        if connection.pendingInputBytes < VarlinkConnection.queuedInputLimit || connection.closeWhenFlushed
            || connection.holdsCompleteMessage() {
            connection.growsPastBudget = false
            counter.endGrowthPastBudget(connection.fd)
        } else if connection.pendingInputBytes - connection.turnProgressMark >= Self.turnProgressBytes {
            connection.turnProgressMark = connection.pendingInputBytes
            counter.grewPastBudget(connection.fd, now: MonotonicClock.now())
        }
    }

    /// Sets what the loop waits for on `connection`: input while it has room for it, and room
    /// to write while output is queued.
    func updateInterest(_ connection: VarlinkConnection) {
        guard !connection.peerGone else { return }
        let room = inputRoom(of: connection)
        let hasRoom = connection.pendingInputBytes <= room.limit
        let wantsInput = !connection.closeWhenFlushed && !connection.inputClosed
            && connection.pendingOutputBytes < Self.outputHighWater && hasRoom
        // A connection without room is read again when its call ends (it is serviced then); one
        // the spent budget holds back, when the budget is let go of, by any loop's connection:
        // nothing tells this loop of that, so it looks again (`recheckInputRoom()`), and the
        // message is not left unread until the idle timeout closes its connection.
        if room.heldByBudget, !hasRoom, !connection.waitsForInputRoom {
            connection.waitsForInputRoom = true
            waitingForInputRoom.append(connection)
            nextInputRoomCheck = min(nextInputRoomCheck, MonotonicClock.now() + Self.inputRoomRecheckNanoseconds)
        }
        var events: UInt32 = wantsInput ? Epoll.readable : 0
        if connection.pendingOutputBytes > 0 { events |= Epoll.writable }
        guard events != connection.registeredEvents else { return }
        connection.registeredEvents = events
        _ = epoll.modify(connection.fd, events: events, tag: connection.epollTag)
    }
}
