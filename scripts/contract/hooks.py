"""schemathesis hooks for the contract run (scripts/contract/run.sh).

Each request gets its own Idempotency-Key, and names its user in the body or the header, not both. Reusing one key for different requests is refused with 422 by design;
left to chance, schemathesis reuses keys across unrelated requests and reports that correct refusal as "a valid
request rejected".
"""
import uuid

import schemathesis


@schemathesis.hook
def before_call(context, case, kwargs):
    key = (case.headers or {}).get("Idempotency-Key")
    # Only valid keys are replaced: an invalid one is a negative test case and must reach the service as generated.
    if isinstance(key, str) and 1 <= len(key) <= 255 and all(0x21 <= ord(c) <= 0x7E for c in key):
        case.headers["Idempotency-Key"] = str(uuid.uuid4())
    # One request names its user once: a body `user_id` and an `X-User-ID` header that differ are refused with 400
    # by design (a session must not go to a user by a guess), a rule across header and body that OpenAPI cannot
    # state. When the body names a user, the generated header is left out, as the app does.
    body = case.body if isinstance(case.body, dict) else {}
    if isinstance(body.get("user_id"), str) and case.headers and "X-User-ID" in case.headers:
        del case.headers["X-User-ID"]
