"""Verifies a webhook's X-MM-Signature with Python's standard library only (Python 3.7 or later).

Copy this file into your receiver. Pass the body's exact bytes, before any JSON parsing.
"""
import hashlib
import hmac
import re
import sys
import time

# Seconds a timestamp may be from your clock: older requests are stale or replayed.
TOLERANCE_SECONDS = 300


def verify_webhook_signature(secret, timestamp, raw_body, signature, now_seconds=None):
    """True when signature (X-MM-Signature) is the lowercase hex HMAC-SHA256, keyed with your signing
    secret, of timestamp (X-MM-Timestamp, Unix seconds), a ".", and raw_body (bytes); and the timestamp
    is within TOLERANCE_SECONDS of now."""
    if not isinstance(timestamp, str) or not isinstance(signature, str):
        return False
    if not re.fullmatch(r"[0-9]{1,12}", timestamp) or not re.fullmatch(r"[0-9a-f]{64}", signature):
        return False
    now = time.time() if now_seconds is None else now_seconds
    if abs(now - int(timestamp)) > TOLERANCE_SECONDS:
        return False
    expected = hmac.new(secret.encode("utf-8"), timestamp.encode("ascii") + b"." + raw_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature)


# As a command (how the repository's tests run it): WEBHOOK_SECRET=... python3 verify.py TIMESTAMP SIGNATURE < body
# prints "valid" and exits 0, or prints "invalid" and exits 1.
if __name__ == "__main__":
    import os

    ok = verify_webhook_signature(os.environ.get("WEBHOOK_SECRET", ""), sys.argv[1], sys.stdin.buffer.read(), sys.argv[2])
    print("valid" if ok else "invalid")
    sys.exit(0 if ok else 1)
