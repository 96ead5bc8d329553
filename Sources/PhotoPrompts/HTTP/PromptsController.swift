import HTTPTypes
import Hummingbird
import PromptDomain
import PromptGeneration

/// The app's API: start a session, refresh it, read it back, and say which prompt the user picked.
public struct PromptsController<Context: ServiceRequestContext>: Sendable {
    let sessions: AppServices.Sessions
    let idempotency: IdempotentRequests
    let limits: RequestLimits
    let events: PromptEventStream
    let deadlines: DeadlineWatch
    let departures: ClientDepartures

    /// Creates the controller; a streamed answer sends a comment line every `keepAlive` while no event is due.
    init(
        sessions: AppServices.Sessions,
        idempotency: IdempotentRequests,
        limits: RequestLimits,
        deadlines: DeadlineWatch,
        departures: ClientDepartures,
        keepAlive: Duration = .seconds(5)
    ) {
        self.sessions = sessions
        self.idempotency = idempotency
        self.limits = limits
        self.deadlines = deadlines
        self.departures = departures
        self.events = PromptEventStream(keepAlive: keepAlive, tracer: sessions.starts.generator.tracer)
    }

    /// What an answer may take past the request's deadline: the store's last write. Every request is answered by
    /// `LLM_TIMEOUT` + 1 s, whatever a database or a crashed process left behind.
    static var answerMargin: Duration { .milliseconds(750) }

    /// `POST /v1/prompts`, `POST /v1/sessions/{session_id}/refresh`, `GET /v1/sessions/{session_id}`,
    /// `POST /v1/sessions/{session_id}/feedback`.
    public var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .post("prompts", use: create)
            .post("sessions/:session_id/refresh", use: refresh)
            .get("sessions/:session_id", use: show)
            .post("sessions/:session_id/feedback", use: feedback)
    }

    @Sendable func create(request: Request, context: Context) async throws -> Response {
        let bytes = try await JSONRequestDecoder.collect(request)
        let deadline = sessions.starts.deadline()
        let body = try JSONRequestDecoder.decode(PromptRequest.self, from: bytes).validated()
        let caller = try Self.caller(request, context, userID: body.userID)
        try limits.admit(caller)
        return try await respond(request, context, caller: caller, body: bytes, deadline: deadline) { stream in
            try await sessions.starts.start(
                photo: body.photo,
                caller: caller,
                locale: body.locale,
                readsCache: Self.readsCache(request),
                deadline: deadline,
                stream: stream,
                logger: context.logger
            )
        }
    }

    @Sendable func refresh(request: Request, context: Context) async throws -> Response {
        let deadline = sessions.refreshes.deadline()
        let sessionID = try context.parameters.require("session_id")
        let caller = try Self.caller(request, context)
        try limits.admit(caller)
        return try await respond(request, context, caller: caller, body: nil, deadline: deadline) { stream in
            do {
                return try await sessions.refreshes.refresh(
                    sessionID: sessionID,
                    caller: caller,
                    readsCache: Self.readsCache(request),
                    deadline: deadline,
                    stream: stream,
                    logger: context.logger
                )
            } catch let error as SessionError {
                throw Self.apiError(for: error, limit: sessions.refreshes.limit)
            }
        }
    }

    /// The answer to a prompt route, by the deadline: JSON, or events for a client that asked for a stream.
    func respond(
        _ request: Request,
        _ context: Context,
        caller: Caller,
        body: ByteBuffer?,
        deadline: ContinuousClock.Instant,
        _ work: @escaping @Sendable (SessionStream?) async throws -> SessionAnswer
    ) async throws -> Response {
        @Sendable func answered(_ stream: SessionStream?) async throws -> (StoredResponse, replayed: Bool) {
            try await deadlines.answer(by: deadline + Self.answerMargin, departure: departures.departure(of: context.connection)) {
                try await idempotently(request, context, caller: caller, body: body, deadline: deadline) { try await work(stream) }
            }
        }
        guard PromptEventStream.isRequested(by: request) else {
            let (stored, replayed) = try await answered(nil)
            return stored.response(replayed: replayed)
        }
        return try await events.respond(logger: context.logger, traceID: context.traceID) { try await answered($0) }
    }

    @Sendable func show(request: Request, context: Context) async throws -> SessionResponse {
        let sessionID = try context.parameters.require("session_id")
        do {
            let session = try await sessions.feedback.session(id: sessionID, caller: try Self.caller(request, context))
            return SessionResponse(session, refreshLimit: sessions.refreshes.limit)
        } catch let error as SessionError {
            throw Self.apiError(for: error, limit: sessions.refreshes.limit)
        }
    }

    @Sendable func feedback(request: Request, context: Context) async throws -> FeedbackResponse {
        let sessionID = try context.parameters.require("session_id")
        let body = try await JSONRequestDecoder.decode(FeedbackRequest.self, from: request)
        do {
            let recorded = try await sessions.feedback.record(
                sessionID: sessionID,
                promptID: body.promptID,
                action: body.action,
                caller: try Self.caller(request, context)
            )
            return FeedbackResponse(sessionID: sessionID, recorded)
        } catch let error as SessionError {
            throw Self.apiError(for: error, limit: sessions.refreshes.limit)
        }
    }

    /// Runs `work` once per `Idempotency-Key` (when the request has one) and gives its result as JSON, with a
    /// `Server-Timing` header saying where the time went, and whether it is a replay. Client errors are answers too:
    /// a retry gets the same 429.
    func idempotently(
        _ request: Request,
        _ context: Context,
        caller: Caller,
        body: ByteBuffer?,
        deadline: ContinuousClock.Instant,
        _ work: () async throws -> SessionAnswer
    ) async throws -> (StoredResponse, replayed: Bool) {
        guard let key = try Self.idempotencyKey(request) else {
            let answer = try await work()
            Self.note(answer, in: context)
            return (try stored(answer, fingerprint: ""), false)
        }
        // What makes two requests "the same": route, user and body bytes. The client key scopes the key itself.
        let fingerprint = ContentHash.sha256Hex(
            "\(request.method.rawValue)\u{0}\(request.uri.path)\u{0}\(caller.userID ?? "")\u{0}" + (body.map { String(buffer: $0) } ?? "")
        )
        let (answer, replayed) = try await idempotency.run(
            client: caller.client,
            key: key,
            fingerprint: fingerprint,
            userID: caller.userID,
            deadline: deadline,
            logger: context.logger
        ) {
            do {
                let session = try await work()
                Self.note(session, in: context)
                var answer = try stored(session, fingerprint: fingerprint)
                answer.userID = caller.userID
                return answer
            } catch var error as APIError where error.status.code < 500 {
                // A replay answers with the trace of the request that met the error.
                error.traceID = context.traceID
                let body = [UInt8](try error.encodedBody())
                return StoredResponse(status: error.status.code, body: body, fingerprint: fingerprint, userID: caller.userID)
            }
        }
        if replayed { context.requestLog.set("idempotent_replay", "true") }
        return (answer, replayed)
    }

    /// What the request's log line says about the answer: never its prompts.
    static func note(_ answer: SessionAnswer, in context: Context) {
        let log = context.requestLog
        log.set("source", answer.round.source.rawValue)
        log.set("fallback_reason", answer.round.fallbackReason?.rawValue)
        log.set("template", answer.template.label)
        log.set("backend", answer.round.answeredBy.map { "\($0.provider)/\($0.model)" })
        let cache = answer.timing.entries.first { $0.name == "cache" }?.detail ?? "skipped"
        log.set("cache", answer.timing.entries.contains { $0.name == "surplus" } ? "surplus" : cache)
    }

    /// The answer as JSON bytes with its timing.
    func stored(_ answer: SessionAnswer, fingerprint: String) throws -> StoredResponse {
        let body = PromptsResponse(answer, refreshLimit: sessions.refreshes.limit).jsonBytes
        let timing = answer.timing.entries.isEmpty ? nil : answer.timing.headerValue
        return StoredResponse(status: 200, body: body, serverTiming: timing, fingerprint: fingerprint)
    }

    /// The `Idempotency-Key` header: 1 to 255 visible ASCII characters.
    static func idempotencyKey(_ request: Request) throws -> String? {
        guard let name = HTTPField.Name("Idempotency-Key"), let value = request.headers[name] else { return nil }
        guard (1...255).contains(value.count), value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw APIError.invalidField("Idempotency-Key", "must be 1 to 255 visible ASCII characters")
        }
        return value
    }

    /// The client key's name and the user: the body's `user_id` or the `X-User-ID` header, whichever is sent.
    ///
    /// - Throws: 400 naming both when both are sent and disagree: a session must not go to a user by a guess.
    static func caller(_ request: Request, _ context: Context, userID bodyUserID: String? = nil) throws -> Caller {
        var headerUserID: String?
        if let name = HTTPField.Name("X-User-ID"), let header = request.headers[name] {
            headerUserID = try PromptRequest.cleanUserID(header: header)
        }
        if let bodyUserID, let headerUserID, bodyUserID != headerUserID {
            throw APIError(
                .badRequest,
                code: "invalid_request",
                message: "user_id and X-User-ID name different users; send one of them, or the same user in both",
                details: ["user_id", "X-User-ID"]
            )
        }
        return Caller(client: context.client ?? Caller.openClient, userID: bodyUserID ?? headerUserID)
    }

    /// `Cache-Control: no-cache` asks for a fresh answer: the cache is not read (the new answer is still stored).
    static func readsCache(_ request: Request) -> Bool {
        let directives = request.headers[values: .cacheControl].flatMap { $0.split(separator: ",") }
        // Trimmed of HTTP's optional whitespace (spaces and tabs) by the standard library: Foundation's
        // `trimmingCharacters` went through NSString on every request.
        return !directives.contains { $0.trimming { $0 == " " || $0 == "\t" }.lowercased() == "no-cache" }
    }

    static func apiError(for error: SessionError, limit: Int) -> APIError {
        switch error {
        case .notFound: .sessionNotFound
        case .refreshLimitReached(let used, let copy): .refreshLimitReached(used: used, limit: limit, copy: copy)
        case .promptNotFound: .promptNotFound
        case .refreshInProgress: .refreshInProgress
        case .refreshPending(let used, let retryAfter): .refreshPending(used: used, limit: limit, retryAfterSeconds: retryAfter)
        }
    }
}
