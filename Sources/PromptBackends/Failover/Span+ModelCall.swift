import PromptDomain
import Tracing

/// What a request's spans say of its model calls and of the gate: names, counts and outcomes, never a prompt, a
/// reply, a caption or a key. Attribute names follow OpenTelemetry's `gen_ai` conventions where they have one.
extension Span {
    package func describeModelCall(_ identity: BackendIdentity, request: LLMRequest, number: Int, outcome: BackendChain.Attempt?) {
        updateAttributes { attributes in
            attributes["gen_ai.system"] = identity.provider
            attributes["gen_ai.request.model"] = identity.model
            attributes["gen_ai.request.max_tokens"] = request.maxTokens
            attributes["photo_prompts.template_version"] = request.templateVersion
            attributes["photo_prompts.attempt"] = number
            attributes["photo_prompts.outcome"] = outcome?.outcome ?? "timeout"
            attributes["gen_ai.usage.input_tokens"] = outcome?.usage?.prompt
            attributes["gen_ai.usage.output_tokens"] = outcome?.usage?.completion
            attributes["photo_prompts.usage.cached_input_tokens"] = outcome?.usage?.cached
        }
        if outcome?.outcome != "ok" { setStatus(SpanStatus(code: .error)) }
    }

    /// The gate's verdicts on one reply: how many candidates it kept, and how many it rejected for each reason.
    package func describeVerdicts(_ validation: PromptValidation) {
        updateAttributes { attributes in
            attributes["photo_prompts.gate.kept"] = validation.kept.count
            attributes["photo_prompts.gate.rejected"] = validation.rejected.count
            var counts: [String: Int] = [:]
            for rejection in validation.rejected { counts[rejection.reason.code, default: 0] += 1 }
            for (reason, count) in counts { attributes["photo_prompts.gate.rejected.\(reason)"] = count }
        }
    }
}

/// Writes a tracer's propagation headers (`traceparent`, `tracestate`) into the fields a model call sends.
package struct TraceHeaders: Injector {
    package init() {}

    package func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[key] = value
    }
}
