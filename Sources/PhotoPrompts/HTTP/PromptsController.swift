import HTTPTypes
import Hummingbird
import PromptDomain
import PromptGeneration
import PromptStores

/// The app's API: start a session, refresh it, read it back, and say which prompt the user picked.
public struct PromptsController: Sendable {
    public typealias Context = AppRequestContext
    let sessions: SessionService
    let idempotency: any IdempotencyStore
    let clock: any WallClock
    let limits: RequestLimits
    let deadlines: DeadlineWatch
    let departures: ClientDepartures
    /// How often a streamed answer sends a comment line while no event is due.
    var keepAlive: Duration = .seconds(5)

    var events: PromptEventStream { PromptEventStream(keepAlive: keepAlive, tracer: sessions.generator.tracer) }

    /// What an answer may take past the request's deadline: the store's last write. Every request is answered by
    /// `LLM_TIMEOUT` + 1 s, whatever a database or a crashed process left behind.
    static var answerMargin: Duration { .milliseconds(750) }

    public var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.group()
            .add(
                middleware: IdempotencyMiddleware(
                    idempotency: IdempotentRequests(store: idempotency, clock: clock, deadlines: deadlines, margin: Self.answerMargin),
                    deadline: { [sessions] in sessions.deadline(from: $0) },
                    events: events
                )
            )
            .post("prompts", use: create)
            .post("sessions/:session_id/refresh", use: refresh)
        routes.get("sessions/:session_id", use: show).post("sessions/:session_id/feedback", use: feedback)
        return routes
    }

    @Sendable func create(request: Request, context: Context) async throws -> Response {
        let deadline = sessions.deadline(from: context.receivedAt)
        let body = try await JSONRequestDecoder.decode(PromptRequest.self, from: request).validated()
        let caller = try Self.caller(request, context, userID: body.userID)
        try limits.admit(caller)
        return try await respond(request, context, for: caller, deadline: deadline) { stream in
            try await sessions.start(
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
        let deadline = sessions.deadline(from: context.receivedAt)
        let sessionID = try context.parameters.require("session_id")
        let caller = try Self.caller(request, context)
        try limits.admit(caller)
        return try await respond(request, context, for: caller, deadline: deadline) { stream in
            do {
                return try await sessions.refresh(
                    sessionID: sessionID,
                    caller: caller,
                    readsCache: Self.readsCache(request),
                    deadline: deadline,
                    stream: stream,
                    logger: context.logger
                )
            } catch let error as SessionError {
                throw Self.apiError(for: error, limit: sessions.refreshLimit)
            }
        }
    }

    /// The answer to a prompt route, by the deadline: JSON, or events for a client that asked for a stream.
    func respond(
        _ request: Request,
        _ context: Context,
        for caller: Caller,
        deadline: ContinuousClock.Instant,
        _ work: @escaping @Sendable (SessionStream?) async throws -> SessionAnswer
    ) async throws -> Response {
        context.heldKey?.workBegins(for: caller.userID)
        @Sendable func answered(_ stream: SessionStream?) async throws -> PromptEventStream.Answer {
            try await deadlines.answer(by: deadline + Self.answerMargin, departure: departures.departure(of: context.connection)) {
                let answer = try await work(stream)
                Self.note(answer, in: context)
                return (stored(answer), answer.round.prompts)
            }
        }
        guard PromptEventStream.isRequested(by: request) else { return try await answered(nil).stored.response(replayed: false) }
        return try await events.respond(for: context) { try await answered($0) }
    }

    @Sendable func show(request: Request, context: Context) async throws -> SessionResponse {
        let sessionID = try context.parameters.require("session_id")
        do {
            let session = try await sessions.session(id: sessionID, caller: try Self.caller(request, context))
            return SessionResponse(session, refreshLimit: sessions.refreshLimit)
        } catch let error as SessionError {
            throw Self.apiError(for: error, limit: sessions.refreshLimit)
        }
    }

    @Sendable func feedback(request: Request, context: Context) async throws -> FeedbackResponse {
        let sessionID = try context.parameters.require("session_id")
        let body = try await JSONRequestDecoder.decode(FeedbackRequest.self, from: request)
        do {
            let recorded = try await sessions.record(
                sessionID: sessionID,
                promptID: body.promptID,
                action: body.action,
                caller: try Self.caller(request, context)
            )
            return FeedbackResponse(sessionID: sessionID, recorded)
        } catch let error as SessionError {
            throw Self.apiError(for: error, limit: sessions.refreshLimit)
        }
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

    /// The answer as JSON bytes with its timing; ``IdempotencyMiddleware`` gives it its fingerprint when it is kept.
    func stored(_ answer: SessionAnswer) -> StoredResponse {
        let body = PromptsResponse(answer, refreshLimit: sessions.refreshLimit).jsonBytes
        let timing = answer.timing.entries.isEmpty ? nil : answer.timing.headerValue
        return StoredResponse(status: 200, body: body, serverTiming: timing, fingerprint: "")
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
