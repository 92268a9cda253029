import SystemSupport
/// Deadlines: per-call deadlines, idle timeouts, the shutdown grace period and accept pauses.
extension VarlinkEventLoop {
    /// Fires every deadline that has passed and schedules the next sweep.
    func sweep() {
        let now = MonotonicClock.now()
        // What the sweep fires schedules more (an expired call's connection starts its next
        // call, and restarts its idle clock): those land in `nextSweep`, kept at the end.
        nextSweep = .max
        var next = UInt64.max
        if let resume = acceptPausedUntil {
            if now >= resume { resumeAccepting() } else { next = min(next, resume) }
        }
        if let drainDeadline {
            if now >= drainDeadline {
                for connection in Array(connections.values) { close(connection) }
            } else {
                next = min(next, drainDeadline)
            }
        }
        let idle = MonotonicClock.timeout(seconds: configuration.idleTimeoutSeconds)
        for connection in Array(connections.values) {
            if let active = connection.activeCall {
                if now >= active.deadline {
                    expire(active, on: connection)
                } else {
                    next = min(next, active.deadline)
                }
            } else if now >= connection.lastActivity + idle {
                close(connection)
            } else {
                next = min(next, connection.lastActivity + idle)
            }
        }
        nextSweep = min(nextSweep, next)
    }

    /// Looks again at the connections the spent input budget held back: each is read again if
    /// there is room now (or it gets the turn to grow past the budget), else it stays on the list
    /// for the next look.
    func recheckInputRoom() {
        nextInputRoomCheck = .max
        let waiting = waitingForInputRoom
        waitingForInputRoom.removeAll()
        for connection in waiting {
            connection.waitsForInputRoom = false
            guard connections[connection.fd] === connection else { continue }
            updateInterest(connection)
        }
    }

    private func expire(_ active: VarlinkConnection.ActiveCall, on connection: VarlinkConnection) {
        active.task.cancel()
        let error = configuration.deadlineError(active.deadlineSeconds)
        if active.sendsReply {
            connection.enqueue(VarlinkMessage.encodeError(error))
        }
        metrics.ended(slot: active.metricsSlot, startedAt: active.startedAt, failure: error.name, withFirstReply: !active.firstReplyCounted)
        finishCall(on: connection)
        service(connection)
    }

    /// Stops accepting; connections close once their call in flight has replied, or at the grace deadline.
    /// A later request may shorten the grace period (a shutdown with none, or the server's task
    /// cancelled, after a graceful one), never lengthen it.
    func beginDrain(graceSeconds: Int) {
        let deadline = MonotonicClock.now() + MonotonicClock.nanoseconds(seconds: graceSeconds)
        if let current = drainDeadline {
            if deadline < current {
                drainDeadline = deadline
                nextSweep = min(nextSweep, deadline)
            }
            return
        }
        stopListening()
        drainDeadline = deadline
        nextSweep = min(nextSweep, deadline)
        for connection in Array(connections.values) { service(connection) }
    }
}
