import HTTPTypes
import Hummingbird

/// The app's API: start a session, refresh it, read it back, and say which prompt the user picked.
public struct PromptsController<Context: ClientIdentifiedContext>: Sendable {
    let sessions: SessionService

    /// Creates the controller.
    public init(sessions: SessionService) {
        self.sessions = sessions
    }

    /// `POST /v1/prompts`, `POST /v1/sessions/{session_id}/refresh`, `GET /v1/sessions/{session_id}`,
    /// `POST /v1/sessions/{session_id}/feedback`.
    public var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .post("prompts", use: create)
            .post("sessions/:session_id/refresh", use: refresh)
            .get("sessions/:session_id", use: show)
            .post("sessions/:session_id/feedback", use: feedback)
    }

    @Sendable func create(request: Request, context: Context) async throws -> EditedResponse<PromptsResponse> {
        let body = try await JSONRequestDecoder.decode(PromptRequest.self, from: request).validated()
        let answer = try await sessions.start(
            photo: body.photo,
            caller: try Self.caller(request, context, userID: body.userID),
            locale: body.locale,
            readsCache: Self.readsCache(request),
            logger: context.logger
        )
        return respond(with: answer)
    }

    @Sendable func refresh(request: Request, context: Context) async throws -> EditedResponse<PromptsResponse> {
        let sessionID = try context.parameters.require("session_id")
        do {
            let answer = try await sessions.refresh(
                sessionID: sessionID,
                caller: try Self.caller(request, context),
                readsCache: Self.readsCache(request),
                logger: context.logger
            )
            return respond(with: answer)
        } catch let error as SessionError {
            throw Self.apiError(for: error, limit: sessions.refreshLimit)
        }
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
            let recorded = try await sessions.feedback(
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

    /// The answer, with a `Server-Timing` header saying where the time went.
    func respond(with answer: SessionAnswer) -> EditedResponse<PromptsResponse> {
        var headers = HTTPFields()
        if let name = HTTPField.Name("Server-Timing"), !answer.timing.entries.isEmpty {
            headers[name] = answer.timing.headerValue
        }
        return EditedResponse(status: .ok, headers: headers, response: PromptsResponse(answer, refreshLimit: sessions.refreshLimit))
    }

    /// The client key's name and the user: the body's `user_id` when there is one, else the `X-User-ID` header.
    static func caller(_ request: Request, _ context: Context, userID bodyUserID: String? = nil) throws -> Caller {
        var userID = bodyUserID
        if userID == nil, let name = HTTPField.Name("X-User-ID"), let header = request.headers[name] {
            let trimmed = header.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, trimmed.count <= 128, trimmed.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control }) else {
                throw APIError.invalidField("X-User-ID", "must be 1 to 128 characters without control characters")
            }
            userID = trimmed
        }
        return Caller(client: context.client ?? Caller.openClient, userID: userID)
    }

    /// `Cache-Control: no-cache` asks for a fresh answer: the cache is not read (the new answer is still stored).
    static func readsCache(_ request: Request) -> Bool {
        let directives = request.headers[values: .cacheControl].flatMap { $0.split(separator: ",") }
        return !directives.contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "no-cache" }
    }

    static func apiError(for error: SessionError, limit: Int) -> APIError {
        switch error {
        case .notFound: .sessionNotFound
        case .refreshLimitReached(let used): .refreshLimitReached(used: used, limit: limit)
        case .promptNotFound: .promptNotFound
        }
    }
}
