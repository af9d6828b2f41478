/**
 * Credentials a client put in a query string (`api_username`, `api_password`, e.g. the simple send
 * interface) end up in URLs, and URLs end up in log lines. Applied to every serialised line, so no field,
 * message or stack can carry them. Also matches the percent-encoded underscore.
 */
// The value runs to the next parameter, fragment, space or end of the JSON string (a JSON escape such as
// \" or \\ is part of the value).
const QUERY_CREDENTIAL = /([?&;"]api(?:_|%5f)(?:username|password)=)(?:\\.|[^&;#"\s\\])*/gi;

export function redactQueryCredentials(line: string): string {
  // Cheap pre-check: nearly every line has no such parameter.
  if (!/api(?:_|%5f)(?:username|password)=/i.test(line)) return line;
  return line.replace(QUERY_CREDENTIAL, '$1[redacted]');
}
