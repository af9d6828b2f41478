<?php
// Verifies a webhook's X-MM-Signature with PHP's standard library only (PHP 7.0 or later).
// Copy this file into your receiver. Pass the body's exact bytes (file_get_contents('php://input')),
// before any JSON parsing.

/** Seconds a timestamp may be from your clock: older requests are stale or replayed. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * true when $signature (X-MM-Signature) is the lowercase hex HMAC-SHA256, keyed with your signing
 * secret, of $timestamp (X-MM-Timestamp, Unix seconds), a ".", and $rawBody; and the timestamp is
 * within WEBHOOK_TOLERANCE_SECONDS of now.
 */
function verify_webhook_signature($secret, $timestamp, $rawBody, $signature, $nowSeconds = null)
{
    if (!is_string($timestamp) || !is_string($signature)) return false;
    if (!preg_match('/\A[0-9]{1,12}\z/', $timestamp) || !preg_match('/\A[0-9a-f]{64}\z/', $signature)) return false;
    $now = $nowSeconds === null ? time() : $nowSeconds;
    if (abs($now - (int) $timestamp) > WEBHOOK_TOLERANCE_SECONDS) return false;
    $expected = hash_hmac('sha256', $timestamp . '.' . $rawBody, $secret);
    return hash_equals($expected, $signature);
}

// In a receiver:
//   $raw = file_get_contents('php://input');
//   if (!verify_webhook_signature($secret, $_SERVER['HTTP_X_MM_TIMESTAMP'] ?? '', $raw, $_SERVER['HTTP_X_MM_SIGNATURE'] ?? '')) {
//       http_response_code(401); exit;
//   }

// As a command (how the repository's tests run it): WEBHOOK_SECRET=... php verify.php TIMESTAMP SIGNATURE < body
// prints "valid" and exits 0, or prints "invalid" and exits 1.
if (PHP_SAPI === 'cli' && isset($argv) && realpath($argv[0]) === __FILE__) {
    $ok = verify_webhook_signature(getenv('WEBHOOK_SECRET') ?: '', $argv[1] ?? '', file_get_contents('php://stdin'), $argv[2] ?? '');
    echo $ok ? "valid\n" : "invalid\n";
    exit($ok ? 0 : 1);
}
