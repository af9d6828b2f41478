/**
 * Code samples for the main operations (`x-codeSamples`, shown by the reference page and by Redoc), in
 * curl, Node, Python and PHP. Each is made from one request written here, so the four always agree; every
 * sample reads the service's address and the API key from BASE_URL, API_USERNAME and API_PASSWORD, and uses
 * only its language's standard library (an e2e test runs each one against the service).
 */
export interface SampleRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Readonly<Record<string, string>>;
  body?: unknown;
}

export const SAMPLE_REQUESTS: Readonly<Record<string, SampleRequest>> = {
  sendMessages: {
    method: 'POST',
    path: '/v1/messages',
    body: { messages: [{ to: '0412345678', message: 'Your order 42 is ready to collect', sender: 'MyBrand', custom_ref: 'order-42' }] },
  },
  queryMessages: { method: 'GET', path: '/v1/messages', query: { status: 'delivered', limit: '10' } },
  getAccount: { method: 'GET', path: '/v1/account' },
  createContact: { method: 'POST', path: '/v1/contacts', body: { number: '0412345678', first_name: 'Jo' } },
  listInbound: { method: 'GET', path: '/v1/inbound', query: { limit: '10' } },
};

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

const pathWithQuery = (r: SampleRequest) => (r.query ? `${r.path}?${new URLSearchParams(r.query).toString()}` : r.path);

function curl(r: SampleRequest): string {
  const lines = [`curl -sS -u "$API_USERNAME:$API_PASSWORD" -X ${r.method} "$BASE_URL${pathWithQuery(r)}"`];
  if (r.body !== undefined) lines.push(`  -H 'Content-Type: application/json'`, `  -d '${JSON.stringify(r.body)}'`);
  return lines.join(' \\\n');
}

function node(r: SampleRequest): string {
  return [
    `const auth = 'Basic ' + Buffer.from(\`\${process.env.API_USERNAME}:\${process.env.API_PASSWORD}\`).toString('base64');`,
    `const res = await fetch(\`\${process.env.BASE_URL}${pathWithQuery(r)}\`, {`,
    `  method: '${r.method}',`,
    r.body === undefined ? `  headers: { authorization: auth },` : `  headers: { authorization: auth, 'content-type': 'application/json' },`,
    ...(r.body === undefined ? [] : [`  body: JSON.stringify(${JSON.stringify(r.body)}),`]),
    `});`,
    `console.log(res.status, JSON.stringify(await res.json()));`,
  ].join('\n');
}

function python(r: SampleRequest): string {
  return [
    'import base64, json, os, urllib.error, urllib.request',
    '',
    `auth = base64.b64encode(f"{os.environ['API_USERNAME']}:{os.environ['API_PASSWORD']}".encode()).decode()`,
    r.body === undefined ? 'data = None' : `data = json.dumps(json.loads(${JSON.stringify(JSON.stringify(r.body))})).encode()`,
    `request = urllib.request.Request(os.environ["BASE_URL"] + ${JSON.stringify(pathWithQuery(r))}, data=data, method="${r.method}",`,
    `                                 headers={"Authorization": "Basic " + auth, "Content-Type": "application/json"})`,
    'try:',
    '    with urllib.request.urlopen(request) as response:',
    '        print(response.status, json.dumps(json.load(response)))',
    'except urllib.error.HTTPError as error:',
    '    print(error.code, json.dumps(json.load(error)))',
  ].join('\n');
}

function php(r: SampleRequest): string {
  return [
    '<?php',
    `$auth = base64_encode(getenv('API_USERNAME') . ':' . getenv('API_PASSWORD'));`,
    `$context = stream_context_create(['http' => [`,
    `    'method' => '${r.method}',`,
    `    'header' => "Authorization: Basic $auth\\r\\nContent-Type: application/json\\r\\n",`,
    ...(r.body === undefined ? [] : [`    'content' => json_encode(json_decode(${phpString(JSON.stringify(r.body))})),`]),
    `    'ignore_errors' => true,`,
    `]]);`,
    `$body = file_get_contents(getenv('BASE_URL') . ${phpString(pathWithQuery(r))}, false, $context);`,
    `preg_match('/^HTTP\\/\\S+ (\\d{3})/', $http_response_header[0], $status);`,
    `echo $status[1], ' ', json_encode(json_decode($body)), "\\n";`,
  ].join('\n');
}

/** A PHP single-quoted string literal. */
function phpString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function codeSamples(r: SampleRequest): CodeSample[] {
  return [
    { lang: 'Shell', label: 'curl', source: curl(r) },
    { lang: 'JavaScript', label: 'Node (18+)', source: node(r) },
    { lang: 'Python', label: 'Python 3', source: python(r) },
    { lang: 'PHP', label: 'PHP', source: php(r) },
  ];
}

/** Adds `x-codeSamples` to each main operation found in the document's paths. */
export function addCodeSamples(paths: Record<string, Record<string, { operationId?: string; 'x-codeSamples'?: CodeSample[] }>>): void {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      const request = operation?.operationId ? SAMPLE_REQUESTS[operation.operationId] : undefined;
      if (request) operation['x-codeSamples'] = codeSamples(request);
    }
  }
}
